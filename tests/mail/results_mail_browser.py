#!/usr/bin/python3
"""Opens the HTML results mails of `make demo` in headless Chromium (issue 14, acceptance).

results_mail_browser.py OUTBOX_DIR WORK_DIR

For every results mail (.eml) in OUTBOX_DIR: writes its HTML part to WORK_DIR with the inline
images beside it as files (each "cid:NAME" link rewritten to the file), opens it in headless
Chromium (tests/support/webdriver.py) and checks that
  - the first thing the reader sees, after the "your move, due by ..." line (#your-move) of a
    mail asking to move (issue 14 point 2: that line comes first), is the action crop: an
    inline image that loaded, shown at full scale (rendered size == natural size, so never
    shrunk) and above every other text of the body (no other text node comes before it, and
    its bottom is above the first following text's top);
  - a mail asking to move has the orders template attached
    (orders-<game>-turn<n>-<side>.textproto) and quoted; at least one results mail asks;
  - the whole map is attached (Content-Disposition: attachment), named
    <game>-turn-<n>-<side>.png after the turn the subject names, larger than the crop.
A screenshot of each mail is left in WORK_DIR. Standard library only.
"""
import base64
import email
import email.policy
import os
import re
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from webdriver import chromium, fail  # noqa: E402

# What the page tells about the crop and the text, measured by Chromium itself.
MEASURE = r"""
var img = document.images[0];
if (!img) return null;
var r = img.getBoundingClientRect();
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
var before = [], first = null;
var move = document.getElementById('your-move');
while (walker.nextNode()) {
  var node = walker.currentNode;
  if (!node.nodeValue.trim()) continue;
  if (move && move.contains(node)) continue;
  if (img.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_PRECEDING) {
    before.push(node.nodeValue.trim());
  } else if (first === null) {
    first = node;
  }
}
var range = document.createRange();
if (first) range.selectNodeContents(first);
var t = first ? range.getBoundingClientRect() : null;
return {src: img.getAttribute('src'), complete: img.complete,
        natural_w: img.naturalWidth, natural_h: img.naturalHeight,
        shown_w: r.width, shown_h: r.height, top: r.top, bottom: r.bottom,
        text_before: before, first_text: first ? first.nodeValue.trim().slice(0, 60) : '',
        text_top: t ? t.top : null, images: document.images.length,
        move_bottom: move ? move.getBoundingClientRect().bottom : null,
        move_first: move ? !(move.compareDocumentPosition(img) & Node.DOCUMENT_POSITION_PRECEDING) : null};
"""


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        fail("not a PNG")
    return struct.unpack(">II", data[16:24])


def turn_named(subject):
    """(game, turn, side) from "Game demo, turn 1 (blue): results" / "Partie demo, tour 1 (bleu)"."""
    m = re.search(r"(?:Game|Partie) (\S+), t(?:urn|our) (\d+) \((\w+)\)", subject)
    if not m:
        fail("the subject %r names no turn" % subject)
    side = {"bleu": "blue"}.get(m.group(3), m.group(3))
    return m.group(1), int(m.group(2)), side


def check_attachments(name, msg, crop_size):
    """The parts a reader saves. The orders template (issue 14 point 2) is checked here too."""
    game, turn, side = turn_named(str(msg["Subject"]))
    want = "%s-turn-%d-%s.png" % (game, turn, side)
    attached = [p for p in msg.walk() if p.get_content_disposition() == "attachment"]
    maps = [p for p in attached if p.get_filename() == want]
    if len(maps) != 1:
        fail("%s: expected the whole map attached as %s, attachments: %s" %
             (name, want, [p.get_filename() for p in attached]))
    if maps[0].get_content_type() != "image/png":
        fail("%s: %s is %s" % (name, want, maps[0].get_content_type()))
    whole = png_size(maps[0].get_payload(decode=True))
    if whole[0] <= crop_size[0] or whole[1] <= crop_size[1]:
        fail("%s: the whole map %s is not larger than the crop %s" % (name, whole, crop_size))
    templates = [p for p in attached if re.fullmatch(r"orders-.*\.textproto", p.get_filename() or "")]
    return "%s %dx%d" % (want, whole[0], whole[1]), templates


def check_move_request(where, msg, m, templates):
    """A mail with the "your move" line: it comes first, and the template is attached and quoted."""
    if m["move_bottom"] is None:
        if templates:
            fail("%s: an orders template is attached but the mail does not ask to move" % where)
        return False
    if not m["move_first"] or m["move_bottom"] > m["top"]:
        fail("%s: the \"your move\" line is not first, above the crop" % where)
    if len(templates) != 1:
        fail("%s: asks to move, expected one orders template attached, found %s" %
             (where, [p.get_filename() for p in templates]))
    body = msg.get_body(preferencelist=("plain",)).get_content()
    attached = templates[0].get_content()
    if attached.strip().splitlines()[0] not in body:
        fail("%s: the attached orders template is not quoted in the text part" % where)
    return True


def main():
    outbox, work = sys.argv[1], os.path.abspath(sys.argv[2])
    mails = sorted(f for f in os.listdir(outbox) if f.endswith(".eml"))
    results = []
    for f in mails:
        with open(os.path.join(outbox, f), "rb") as fh:
            msg = email.message_from_binary_file(fh, policy=email.policy.default)
        if re.search(r"\)[ \u00a0]?: (results|résultats)$", str(msg["Subject"])):
            results.append((f, msg))
    if len(results) < 4:
        fail("expected 4 results mails in %s, found %d of %d mails" % (outbox, len(results), len(mails)))

    asking = 0
    with chromium("1200,900") as wd:
        for name, msg in results:
            html = None
            images = {}
            for part in msg.walk():
                if part.get_content_type() == "text/html" and html is None:
                    html = part.get_content()
                elif part.get_content_maintype() == "image" and part["Content-ID"]:
                    images[part["Content-ID"].strip("<>")] = part.get_payload(decode=True)
            if html is None:
                fail("%s: no HTML part" % name)
            if not images:
                fail("%s: no inline image" % name)
            base = os.path.join(work, name[:-4])
            os.makedirs(base, exist_ok=True)
            for cid, data in images.items():
                with open(os.path.join(base, cid), "wb") as fh:
                    fh.write(data)
                html = html.replace("cid:" + cid, cid)
            page = os.path.join(base, "mail.html")
            with open(page, "w", encoding="utf-8") as fh:
                fh.write(html)
            wd.go("file://" + page)
            m = wd.js(MEASURE)
            if m is None:
                fail("%s: the page shows no image" % name)
            where = "%s (%s)" % (name, msg["To"])
            if not m["complete"] or m["natural_w"] <= 0:
                fail("%s: the map %s did not load" % (where, m["src"]))
            if not m["src"].endswith("-action.png"):
                fail("%s: the first image is %s, not the action crop" % (where, m["src"]))
            if (m["shown_w"], m["shown_h"]) != (m["natural_w"], m["natural_h"]):
                fail("%s: the crop is shown at %sx%s, its natural size is %dx%d: not full scale" %
                     (where, m["shown_w"], m["shown_h"], m["natural_w"], m["natural_h"]))
            if m["text_before"]:
                fail("%s: text comes before the crop: %r" % (where, m["text_before"][:3]))
            if m["text_top"] is None or m["bottom"] > m["text_top"]:
                fail("%s: the crop (bottom %s) is not above the first text %r (top %s)" %
                     (where, m["bottom"], m["first_text"], m["text_top"]))
            whole, templates = check_attachments(where, msg, (m["natural_w"], m["natural_h"]))
            if check_move_request(where, msg, m, templates):
                asking += 1
            shot = base64.b64decode(wd.call("GET", wd.s("/screenshot")))
            with open(base + ".png", "wb") as fh:
                fh.write(shot)
            print("%s: crop %s %dx%d at full scale, top %d, bottom %d; then %r at %d; whole map %s" %
                  (where, m["src"], m["natural_w"], m["natural_h"], m["top"], m["bottom"],
                   m["first_text"], m["text_top"], whole))
    if asking == 0:
        fail("no results mail asks the side to move next, with its orders template")
    print("%d results mails checked, %d ask to move with the orders template" % (len(results), asking))


if __name__ == "__main__":
    main()
