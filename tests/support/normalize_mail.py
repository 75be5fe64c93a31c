#!/usr/bin/env python3
"""Print a mail (.eml) in a form that two runs of `make demo` can be compared by: headers without
Date and Message-ID, every part decoded (text as text, anything else as its size and sha256),
and the values that differ from run to run masked (tokens, the loopback port, MIME boundaries,
dates worded in English or French).

Used to show that a change leaves the demo's mails identical (issue 15): run `make demo` before
and after, keep build/demo/outbox of each, then
    tests/support/compare_demo_mails.sh OUTBOX_BEFORE OUTBOX_AFTER
"""
import email
import email.policy
import hashlib
import re
import sys

DAYS_EN = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
MONTHS_EN = ("January|February|March|April|May|June|July|August|September|October|November|"
             "December")
DAYS_FR = "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
MONTHS_FR = ("janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|"
             "décembre")
MASKS = [
    (re.compile(r"\b[0-9a-f]{64}\b"), "<HASH>"),
    (re.compile(r"\b[0-9a-f]{32}\b"), "<TOKEN>"),
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:<PORT>"),
    (re.compile(rf"\b({DAYS_EN}) \d{{1,2}} ({MONTHS_EN}) \d{{4}} at \d{{2}}:\d{{2}} UTC"),
     "<DATE>"),
    (re.compile(rf"\b({DAYS_FR}) \d{{1,2}}(er)? ({MONTHS_FR}) \d{{4}} à \d{{1,2}} h \d{{2}} UTC"),
     "<DATE>"),
]


def mask(text):
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def normalize(path):
    with open(path, "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)
    out = []
    for part in msg.walk():
        for key, value in part.items():
            if key.lower() in ("date", "message-id"):
                continue
            value = str(value)
            if key.lower() == "content-type":
                value = re.sub(r'boundary="?[^";]+"?', "boundary=<B>", value)
            out.append(f"{key}: {mask(value)}")
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True) or b""
        if part.get_content_maintype() == "text":
            out.append(mask(payload.decode(part.get_content_charset() or "utf-8", "replace")))
        else:
            out.append(f"<{len(payload)} bytes, sha256 {hashlib.sha256(payload).hexdigest()}>")
        out.append("----")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: normalize_mail.py MAIL.eml")
    sys.stdout.write(normalize(sys.argv[1]))
