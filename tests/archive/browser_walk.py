#!/usr/bin/python3
"""Walks a pbem archive in headless Chromium over WebDriver (chromedriver on loopback).

browser_walk.py SITE_DIR SCREENSHOT_PNG

Opens SITE_DIR/index.html, follows the "next" link through every turn page, and on each page
checks the turn number (data-sequence = 1, 2, ... in order, data-turn agreeing with the index)
and that the map image loaded (complete, naturalWidth > 0). On the last page it checks there
is no next link and takes a screenshot, which must be a PNG that is not blank. Standard
library only; chromedriver is started here and stopped by its pid.
"""
import base64
import contextlib
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib


def fail(message):
    print("browser_walk: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return json.loads(resp.read().decode())["value"]
        except urllib.error.HTTPError as e:
            fail("%s %s: %s" % (method, path, e.read().decode()[:500]))

    def start(self, profile):
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": shutil.which("chromium"),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--user-data-dir=" + profile,
                         "--window-size=1400,1000", "--allow-file-access-from-files"],
            }}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def s(self, path):
        return "/session/%s%s" % (self.session, path)

    def go(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def js(self, script):
        return self.call("POST", self.s("/execute/sync"), {"script": script, "args": []})

    def quit(self):
        if self.session:
            self.call("DELETE", self.s(""))


@contextlib.contextmanager
def chromium_session():
    """Starts chromedriver on a free loopback port and a headless Chromium session in a fresh
    profile; yields the WebDriver; ends the session and stops chromedriver (by its pid)."""
    port = free_port()
    profile = tempfile.mkdtemp(prefix="pbem-chromium-")
    driver_proc = subprocess.Popen(["chromedriver", "--port=%d" % port, "--allowed-ips=127.0.0.1"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wd = WebDriver(port)
    try:
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(wd.base + "/status", timeout=2).read()
                break
            except OSError:
                if time.time() > deadline:
                    fail("chromedriver did not start")
                time.sleep(0.2)
        wd.start(profile)
        yield wd
    finally:
        try:
            wd.quit()
        finally:
            driver_proc.terminate()
            try:
                driver_proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                driver_proc.kill()
            shutil.rmtree(profile, ignore_errors=True)


def png_is_not_blank(data):
    """Decodes an 8-bit RGB(A) PNG with zlib and checks it has many distinct colours."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("screenshot is not a PNG")
    pos, idat, width, height, colour = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            if depth != 8 or colour not in (2, 6):
                fail("unexpected PNG format depth=%d colour=%d" % (depth, colour))
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        if y % 4 == 0:
            for x in range(0, stride, bpp * 4):
                colours.add(bytes(line[x:x + 3]))
        prev = line
    return width, height, len(colours)


def main():
    site, shot = sys.argv[1], sys.argv[2]
    index = os.path.abspath(os.path.join(site, "index.html"))
    if not os.path.exists(index):
        fail("no index.html in " + site)
    with open(index, encoding="utf-8") as f:
        listed = re.findall(r'<li><a href="(turn-\d+\.html)">', f.read())
    if not listed:
        fail("the index lists no turns")

    with chromium_session() as wd:
        wd.go("file://" + index)
        if not wd.js("return document.getElementById('result') !== null"):
            fail("index has no result paragraph")
        if not wd.js("var i = document.getElementById('map'); return i.complete && i.naturalWidth > 0"):
            fail("index: the opening map did not load")
        sequence = 0
        while True:
            href = wd.js("var n = document.getElementById('next'); return n ? n.getAttribute('href') : null")
            if href is None:
                break
            # Follow the link as a reader would: click it.
            wd.js("document.getElementById('next').click()")
            sequence += 1
            for _ in range(100):
                page = wd.js("return location.pathname.split('/').pop()")
                state = wd.js("return document.readyState")
                if page == href and state == "complete":
                    break
                time.sleep(0.05)
            else:
                fail("clicking next did not open " + href)
            info = wd.js("var h = document.getElementById('turn'); var i = document.getElementById('map');"
                         "return {seq: h && h.dataset.sequence, turn: h && h.dataset.turn,"
                         " complete: i && i.complete, width: i ? i.naturalWidth : 0,"
                         " text: document.body.innerText.length}")
            if info["seq"] != str(sequence):
                fail("%s: expected player-turn %d, page says %s" % (href, sequence, info["seq"]))
            if listed[sequence - 1] != href:
                fail("%s: the index lists %s at position %d" % (href, listed[sequence - 1], sequence))
            if not info["complete"] or info["width"] <= 0:
                fail("%s: the map image did not load (naturalWidth %s)" % (href, info["width"]))
            if info["text"] < 200:
                fail("%s: the page has almost no text" % href)
            print("page %s: player-turn %s, turn %s, map %d px wide" %
                  (href, info["seq"], info["turn"], info["width"]))
        if sequence != len(listed):
            fail("walked %d pages, the index lists %d" % (sequence, len(listed)))
        final = wd.js("var f = document.querySelector('.final'); return f ? f.innerText : ''")
        if not re.search(r"\d+ \w+ .*\d+ \w+", final):
            fail("the last page does not give the final result (got %r)" % final)
        print("final result: " + final)
        png = base64.b64decode(wd.call("GET", wd.s("/screenshot")))
        with open(shot, "wb") as f:
            f.write(png)
        width, height, colours = png_is_not_blank(png)
        if width < 400 or height < 300 or colours < 20:
            fail("screenshot looks blank: %dx%d, %d colours" % (width, height, colours))
        print("walked %d turn pages; screenshot %dx%d with %d colours" % (sequence, width, height, colours))


if __name__ == "__main__":
    main()
