#!/usr/bin/python3
"""Loads the league standings pages in headless Chromium over WebDriver (chromedriver on loopback).

standings_browser.py SITE_EN SITE_FR SCREENSHOT_DIR NAME...

For each SITE (written by `pbem league standings --html SITE --lang en|fr`), opens
SITE/standings.html and checks what a reader sees: the page's language, the standings table
with one row per NAME, each NAME shown as written (accents and all: a page read in the wrong
encoding shows "HÃ©lÃ¨ne"), the style sheet applied (the table's heading is coloured, the
numbers aligned right), the sentence saying after how many games a player is ranked, and
that clicking a game's link opens that game's archive page. Then takes a screenshot, which
must be a PNG that is not blank, and writes it to SCREENSHOT_DIR/standings-<lang>.png.
Standard library only; the WebDriver client is tests/support/webdriver.py, the PNG check the archive
walk's.
"""
import base64
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "support"))
sys.path.insert(0, os.path.join(here, "..", "archive"))
from webdriver import chromium  # noqa: E402
from browser_walk import png_is_not_blank  # noqa: E402


def fail(message):
    print("standings_browser: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


EXPECTED = {
    "en": {"ranked": "A player is ranked after", "heading": "Player"},
    "fr": {"ranked": "Un joueur est classé après", "heading": "Joueur"},
}


def check_page(wd, site, lang, names, shot_dir):
    page = os.path.abspath(os.path.join(site, "standings.html"))
    if not os.path.exists(page):
        fail("no standings.html in " + site)
    wd.go("file://" + page)
    info = wd.js(
        "var t = document.getElementById('standings');"
        "var th = t ? t.querySelector('thead th:nth-child(2)') : null;"
        "var num = t ? t.querySelector('tbody td.num') : null;"
        "return {lang: document.documentElement.lang,"
        " rows: t ? t.tBodies[0].rows.length : -1,"
        " players: t ? Array.from(t.querySelectorAll('tbody td.player')).map(c => c.innerText) : [],"
        " heading: th ? th.innerText : '',"
        " headingBackground: th ? getComputedStyle(th).backgroundColor : '',"
        " numAlign: num ? getComputedStyle(num).textAlign : '',"
        " text: document.body.innerText,"
        " links: Array.from(document.querySelectorAll('#games a')).map(a => a.getAttribute('href'))}")
    if info["lang"] != lang:
        fail("%s: the page says lang=%r" % (lang, info["lang"]))
    if info["rows"] != len(names):
        fail("%s: %d rows in the standings table, expected %d" % (lang, info["rows"], len(names)))
    for name in names:
        if name not in info["players"]:
            fail("%s: %r is not shown as written; the table shows %r" % (lang, name, info["players"]))
    if info["heading"] != EXPECTED[lang]["heading"]:
        fail("%s: the player column is headed %r" % (lang, info["heading"]))
    if info["headingBackground"] in ("", "rgba(0, 0, 0, 0)", "transparent"):
        fail("%s: the style sheet is not applied (the heading has no background)" % lang)
    if info["numAlign"] != "right":
        fail("%s: numbers are aligned %r, not right" % (lang, info["numAlign"]))
    if EXPECTED[lang]["ranked"] not in info["text"]:
        fail("%s: no sentence saying after how many games a player is ranked" % lang)
    if not info["links"]:
        fail("%s: no game is linked" % lang)
    # A reader clicks the first game: its archive page opens.
    first = info["links"][0]
    wd.js("document.querySelector('#games a').click()")
    for _ in range(100):
        state = wd.js("return {path: location.pathname, ready: document.readyState,"
                      " game: document.getElementById('game') !== null}")
        if state["path"].endswith(first) and state["ready"] == "complete" and state["game"]:
            break
        time.sleep(0.05)
    else:
        fail("%s: clicking %s did not open the game's archive page" % (lang, first))
    wd.go("file://" + page)
    png = base64.b64decode(wd.call("GET", wd.s("/screenshot")))
    width, height, colours = png_is_not_blank(png)
    if width < 400 or height < 300 or colours < 8:
        fail("%s: screenshot looks blank: %dx%d, %d colours" % (lang, width, height, colours))
    out = os.path.join(shot_dir, "standings-%s.png" % lang)
    with open(out, "wb") as f:
        f.write(png)
    print("%s: %d players shown, %d games linked; screenshot %s (%dx%d, %d colours)"
          % (lang, info["rows"], len(info["links"]), out, width, height, colours))


def main():
    if len(sys.argv) < 5:
        fail("usage: standings_browser.py SITE_EN SITE_FR SCREENSHOT_DIR NAME...")
    site_en, site_fr, shot_dir, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(shot_dir, exist_ok=True)
    with chromium() as wd:
        check_page(wd, site_en, "en", names, shot_dir)
        check_page(wd, site_fr, "fr", names, shot_dir)


if __name__ == "__main__":
    main()
