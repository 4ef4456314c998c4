#!/usr/bin/python3
"""html-check.py - checks a page clharness wrote as a browser would take it: parsed by
html5lib (Debian's python3-html5lib) in strict mode, where any parse error of the HTML
standard's parsing algorithm fails; self-contained, fetching nothing (no src attribute,
no <link>, no CSS url() or @import, no script); one <title> and one <h1>. Then prints
what a test greps: the title, a line a finding ("RULE LEVEL PLACE"), under it each
source excerpt's caption and marked line ("  line N: ... | hit N"), its work-items and
fix, then the summary's counts and the incomplete banner, then "ok".

Usage: html-check.py PAGE
"""
import re
import sys

import html5lib

NS = "{http://www.w3.org/1999/xhtml}"


def text(e):
    return "".join(e.itertext()).strip()


def main(path):
    raw = open(path, "rb").read()
    try:
        doc = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True).parse(raw)
    except html5lib.html5parser.ParseError as e:
        print(f"{path}: not well-formed HTML: {e}")
        return 1
    problems = []
    for e in doc.iter():
        tag = e.tag.split("}")[-1] if isinstance(e.tag, str) else ""
        for name, value in e.attrib.items():
            local = name.split("}")[-1]
            # A fragment (#gpPt5, an SVG symbol of the page itself) fetches nothing.
            if (local == "src" or (local == "href" and tag in ("link", "image", "use"))) \
                    and not value.startswith("#"):
                problems.append(f"<{tag} {local}={value!r}> fetches something")
        if tag in ("link", "script", "iframe", "object", "embed"):
            problems.append(f"a <{tag}> element")
        if tag == "style" and re.search(r"url\(|@import", e.text or ""):
            problems.append("a style that fetches (url() or @import)")
    titles = doc.findall(f".//{NS}title")
    if len(titles) != 1 or not text(titles[0]):
        problems.append("not exactly one non-empty <title>")
    if len(doc.findall(f".//{NS}h1")) != 1:
        problems.append("not exactly one <h1>")
    if problems:
        for p in problems:
            print(f"{path}: {p}")
        return 1
    print("title:", text(titles[0]))
    for art in doc.iter(f"{NS}article"):
        h3 = art.find(f"{NS}h3")
        level = art.get("class")
        place = text(h3).split(" at ")[-1]
        print(f"{art.get('data-rule')} {level} {place}")
        for fig in art.iter(f"{NS}figure"):
            cap = text(fig.find(f"{NS}figcaption"))
            hits = [s for s in fig.iter(f"{NS}span") if s.get("class") == "hit"]
            marked = " ".join(text(h).split()[0] for h in hits)
            print(f"  {cap} | hit {marked}")
        for dt in art.iter(f"{NS}dt"):
            if text(dt) == "work-items":
                print("  work-items")
        for p in art.iter(f"{NS}p"):
            if p.get("class") == "fix":
                print("  fix: " + text(p))
    for li in doc.iter(f"{NS}li"):
        b = li.find(f"{NS}b")
        if b is not None and text(b).isdigit():
            print(f"count {text(li)[len(text(b)):].strip()} {text(b)}")
    for p in doc.iter(f"{NS}p"):
        if p.get("class") == "incomplete":
            print("incomplete: " + text(p))
    for a in doc.iter(f"{NS}a"):
        print("link " + a.get("href", ""))
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
