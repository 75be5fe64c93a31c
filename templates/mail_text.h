// Internal to pbem_mail: what mail_render.cc shares with the other renderers of the library
// (command_mail.cc). Not for users of mail_render.h.
#ifndef PBEM_TEMPLATES_MAIL_TEXT_H_
#define PBEM_TEMPLATES_MAIL_TEXT_H_

#include <kainjow/mustache.hpp>
#include <string>

#include "templates/mail_render.h"

namespace pbem::templates::detail {

// The greeting's fields ("Hello{{#has_name}} {{name}}{{/has_name}},"): the name, never an
// address.
void SetGreeting(kainjow::mustache::data& d, const std::string& name);
// Renders the text file `name` (no escaping), tidied as every text body is.
Status RenderTextFile(const MailTemplates::LanguageSet& set, const std::string& name,
                      const kainjow::mustache::data& d, std::string* out);
// Renders KIND.txt and KIND.subject (one line) into `out`; `out->html` stays empty.
Status RenderTextMail(const MailTemplates::LanguageSet& set, const std::string& kind,
                      const kainjow::mustache::data& d, Mail* out);

}  // namespace pbem::templates::detail

#endif  // PBEM_TEMPLATES_MAIL_TEXT_H_
