"""The mail benchmarks of issue 7, driven by tests/mail/bench_mail.sh (which starts the mail rig
and pbemd, and seeds the games). Standard library only: smtplib to send as the players,
imaplib to read their mailboxes the way a player's mail client would.

  bench_mail.py SMTP_PORT IMAP_PORT SCENARIOS_DIR RUNS MAILS

Games lat-1..lat-RUNS and bulk-1..bulk-(MAILS/2) must exist, each with alice@test.local
(blue, token tok-blue) and bob@test.local (orange, token tok-orange).

1. Latency, RUNS times, one fresh game each: alice mails blue's orders and the script waits
   until both players can read blue's results over IMAP; then bob mails orange's orders (the
   last order mail of the turn) and the script measures, from the moment it starts sending it,
   when bob can read his receipt and when BOTH players can read orange's results.
   Each order mail is sent on its own SMTP connection, as a player's client would.
2. Throughput: MAILS order mails, half blue (alice) and half orange (bob), one per side per
   game, each half over one SMTP connection. Orange's half is sent once every blue
   player-turn is resolved (a side's orders are only taken on its own player-turn). Measured
   from the first blue mail until every receipt and every results mail (both players, both
   player-turns of every game) is readable over IMAP.
Prints median/p90/min/max and the rates; exits 1 when a mail is missing or a wait times out.
"""

import imaplib
import re
import smtplib
import statistics
import sys
import time

SMTP_PORT, IMAP_PORT = int(sys.argv[1]), int(sys.argv[2])
SCENARIOS, RUNS, MAILS = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
PLAYERS = {"blue": ("alice@test.local", "tok-blue"), "orange": ("bob@test.local", "tok-orange")}
TEMPLATE = {
    side: open(f"{SCENARIOS}/bois-de-la-morne.orders-{side}.textproto", encoding="utf-8").read()
    for side in PLAYERS
}


def orders_mail(game, side):
    sender, token = PLAYERS[side]
    text = TEMPLATE[side].replace('game_id: "demo"', f'game_id: "{game}"')
    assert f'game_id: "{game}"' in text, "the sample orders no longer name game demo"
    head = (
        f"From: {sender}\r\nTo: game@test.local\r\nSubject: [pbem {game}] {side} orders\r\n"
        f"Message-ID: <bench-{game}-{side}@test.local>\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n"
    )
    return sender, (head + text.replace("\n", "\r\n") + f'\r\ntoken: "{token}"\r\n').encode()


def send(mails):
    """Sends [(sender, bytes)] over one SMTP connection."""
    with smtplib.SMTP("127.0.0.1", SMTP_PORT, local_hostname="client.test", timeout=30) as s:
        for sender, data in mails:
            s.sendmail(sender, ["game@test.local"], data)


class Mailbox:
    def __init__(self, user):
        self.imap = imaplib.IMAP4("127.0.0.1", IMAP_PORT)
        self.imap.login(user, user + "pw")
        self.imap.select("INBOX", readonly=True)

    def has(self, subject):
        self.imap.noop()
        typ, data = self.imap.search(None, "SUBJECT", '"' + subject + '"')
        return typ == "OK" and bool(data[0].split())

    def count(self):
        typ, data = self.imap.noop()
        typ, data = self.imap.search(None, "ALL")
        return len(data[0].split()) if typ == "OK" else 0

    def subjects(self):
        self.imap.noop()
        typ, data = self.imap.fetch("1:*", "(BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
        out = []
        for item in data:
            if isinstance(item, tuple):
                header = item[1].decode("utf-8", "replace")
                out.append(re.sub(r"\s+", " ", header.partition(":")[2]).strip())
        return out


def wait(conditions, timeout, what):
    """conditions: {name: callable}; returns {name: seconds since the start} as each holds."""
    start = time.monotonic()
    seen = {}
    while len(seen) < len(conditions):
        for name, check in conditions.items():
            if name not in seen and check():
                seen[name] = time.monotonic() - start
        if len(seen) < len(conditions):
            if time.monotonic() - start > timeout:
                missing = sorted(set(conditions) - set(seen))
                sys.exit(f"FAIL: {what}: still waiting for {missing} after {timeout} s")
            time.sleep(0.02)
    return seen


def p90(values):
    ordered = sorted(values)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]  # nearest rank


def summary(values):
    return (f"median {statistics.median(values):.2f} s, p90 {p90(values):.2f} s, "
            f"min {min(values):.2f} s, max {max(values):.2f} s (n={len(values)})")


alice, bob = Mailbox("alice"), Mailbox("bob")

print(f"latency: {RUNS} runs, each on a fresh game; times from starting to send orange's order mail")
receipts, results = [], []
for i in range(1, RUNS + 1):
    game = f"lat-{i}"
    send([orders_mail(game, "blue")])
    blue = f"Game {game}, turn 1 (blue): results"
    wait({"alice": lambda: alice.has(blue), "bob": lambda: bob.has(blue)}, 60, f"{game} blue")
    orange = f"Game {game}, turn 1 (orange): results"
    receipt = f"Re: [pbem {game}] orange orders"
    t0 = time.monotonic()
    send([orders_mail(game, "orange")])
    seen = wait({"receipt": lambda: bob.has(receipt), "alice": lambda: alice.has(orange),
                 "bob": lambda: bob.has(orange)}, 60, f"{game} orange")
    receipts.append(seen["receipt"])
    results.append(max(seen["alice"], seen["bob"]))
    print(f"  run {i}: receipt {seen['receipt']:.2f} s, both results {results[-1]:.2f} s")
print(f"  order mail -> receipt readable over IMAP:               {summary(receipts)}")
print(f"  last order mail -> both players' results over IMAP:     {summary(results)}")

games = MAILS // 2
print(f"throughput: {2 * games} order mails ({games} games, blue then orange)")
base = {"alice": alice.count(), "bob": bob.count()}
blue_mails = [orders_mail(f"bulk-{g}", "blue") for g in range(1, games + 1)]
orange_mails = [orders_mail(f"bulk-{g}", "orange") for g in range(1, games + 1)]
t0 = time.monotonic()
send(blue_mails)
t_blue_sent = time.monotonic() - t0
# Blue's player-turns: alice gets a receipt and a results mail per game, bob a results mail.
wait({"alice": lambda: alice.count() >= base["alice"] + 2 * games,
      "bob": lambda: bob.count() >= base["bob"] + games}, 1800, "blue's half")
t_blue_done = time.monotonic() - t0
t1 = time.monotonic()
send(orange_mails)
t_orange_sent = time.monotonic() - t1
wait({"alice": lambda: alice.count() >= base["alice"] + 3 * games,
      "bob": lambda: bob.count() >= base["bob"] + 3 * games}, 1800, "orange's half")
total = time.monotonic() - t0
print(f"  blue's {games}: sent in {t_blue_sent:.1f} s, all receipts and results readable "
      f"after {t_blue_done:.1f} s")
print(f"  orange's {games}: sent in {t_orange_sent:.1f} s, all readable "
      f"{total - t_blue_done:.1f} s after the first orange mail")
print(f"  {2 * games} order mails -> {2 * games} receipts + {4 * games} results mails readable "
      f"in {total:.1f} s: {2 * games / total:.1f} order mails/s end to end "
      f"(each one a player-turn resolved and mailed)")

# Every mail is the expected one: one receipt per order mail, one results mail per player per
# player-turn, nothing else (no error reply).
ok = True
for name, box, side in (("alice", alice, "blue"), ("bob", bob, "orange")):
    subjects = [s for s in box.subjects() if "bulk-" in s]
    expected = set()
    for g in range(1, games + 1):
        expected.add(f"Re: [pbem bulk-{g}] {side} orders")
        expected.add(f"Game bulk-{g}, turn 1 (blue): results")
        expected.add(f"Game bulk-{g}, turn 1 (orange): results")
    if sorted(subjects) != sorted(expected):
        ok = False
        print(f"  BAD: {name}: {len(subjects)} bulk mails, {len(set(subjects) - expected)} "
              f"unexpected ({sorted(set(subjects) - expected)[:3]}), "
              f"{len(expected - set(subjects))} missing")
sys.exit(0 if ok else 1)
