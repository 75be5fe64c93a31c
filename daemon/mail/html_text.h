// Plain text from an HTML mail body (issue 14): a webmail that sends only text/html quotes the
// orders template of our mail in its reply inside <blockquote> and <pre>; this turns such a
// body back into the text a text/plain reply would have held, "> " quoting included, so that
// quoted_orders.h finds the template between its marker lines as it does in a plain reply.
//
// Not a browser: tags are dropped; <br> ends a line; block elements (<p>, <div>, <li>, <tr>,
// <h1>..<h6>, <pre>, <table>...) start and end lines; each <blockquote> level quotes its lines
// with "> "; white space collapses outside <pre> and is kept inside; comments and the contents
// of <script>, <style>, <title> and <template> are dropped; the entities &amp; &lt; &gt; &quot;
// &apos; &nbsp; (as a space) and &#NN; &#xNN; are decoded, any other is kept as written.
//
// Hostile input: one pass over the input (each byte looked at a bounded number of times), no
// regex, no recursion, no tree; quoting deeper than kMaxHtmlQuoteDepth is written at that
// depth, and the output stops at `max_output` bytes.
//
// Written rather than taken from libxml2's HTML parser (installed, but linked by nothing in
// pbem): that parser builds a whole tree for what is a single forward scan here, would add a
// C library parsing hostile input to pbemd's link for a handful of tags, and the walk over its
// tree turning <blockquote> into quoting would still be ours.
#ifndef PBEM_DAEMON_MAIL_HTML_TEXT_H_
#define PBEM_DAEMON_MAIL_HTML_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pbem::daemon::mail {

inline constexpr int kMaxHtmlQuoteDepth = 16;
inline constexpr std::size_t kMaxHtmlTextBytes = 1024 * 1024;

// `html` (UTF-8) as plain text, lines ending in '\n', at most `max_output` bytes.
std::string HtmlToText(std::string_view html, std::size_t max_output = kMaxHtmlTextBytes);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_HTML_TEXT_H_
