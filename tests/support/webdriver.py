"""Headless Chromium driven over WebDriver (chromedriver on loopback), standard library only.

    with chromium() as wd:
        wd.go("file:///.../page.html")
        wd.js("return document.title")

chromium() starts chromedriver on a free loopback port (stopped by its pid at the end), opens
one headless session with a fresh profile (removed at the end) and yields the WebDriver.
Needs chromium and chromium-driver (deploy/install-deps.sh test). Used by
tests/archive/browser_walk.py and tests/mail/results_mail_browser.py.
"""
import contextlib
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def fail(message):
    print("%s: FAIL: %s" % (sys.argv[0].rsplit("/", 1)[-1], message), file=sys.stderr)
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

    def start(self, profile, window_size):
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": shutil.which("chromium"),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--user-data-dir=" + profile,
                         "--window-size=" + window_size, "--allow-file-access-from-files",
                         "--force-device-scale-factor=1"],
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
def chromium(window_size="1400,1000"):
    for tool in ("chromium", "chromedriver"):
        if shutil.which(tool) is None:
            fail("%s is missing: run deploy/install-deps.sh test" % tool)
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
        wd.start(profile, window_size)
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
