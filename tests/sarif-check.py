#!/usr/bin/python3
"""sarif-check.py - checks a SARIF log as code scanning would take it: valid against the
SARIF 2.1.0 schema (tests/data/sarif/, see its README for where it comes from), then the
properties GitHub's code scanning documents as required or bounded ("SARIF support for
code scanning"): a driver name; each rule with an id, short and full descriptions, help
and a default level; each result with a ruleId and ruleIndex naming a rule of the driver,
a message, a location whose artifactLocation has a URI and whose region a start line;
related locations that the message links to; at most 20 runs, 25,000 results a run, 1000
locations a result and 20 tags a rule. Prints one line a result, "RULE LEVEL URI:LINE
[-> LINE]", for the calling test to grep, then "ok" or the problems found.

Usage: sarif-check.py SCHEMA LOG
"""
import json
import re
import sys

import jsonschema


def problems(log):
    found = []
    runs = log.get("runs", [])
    if not runs:
        found.append("no run")
    if len(runs) > 20:
        found.append(f"{len(runs)} runs, more than code scanning takes (20)")
    for r, run in enumerate(runs):
        driver = run.get("tool", {}).get("driver", {})
        if not driver.get("name"):
            found.append(f"run {r}: the driver has no name")
        rules = driver.get("rules", [])
        ids = [rule.get("id") for rule in rules]
        if len(set(ids)) != len(ids):
            found.append(f"run {r}: rule ids are not unique")
        for rule in rules:
            for key in ("shortDescription", "fullDescription", "help"):
                if not rule.get(key, {}).get("text"):
                    found.append(f"rule {rule.get('id')}: no {key}.text")
            if "level" not in rule.get("defaultConfiguration", {}):
                found.append(f"rule {rule.get('id')}: no defaultConfiguration.level")
            if len(rule.get("properties", {}).get("tags", [])) > 20:
                found.append(f"rule {rule.get('id')}: more than 20 tags")
        bases = run.get("originalUriBaseIds", {})
        for name, base in bases.items():
            if not base.get("uri", "").startswith("file:///") or not base["uri"].endswith("/"):
                found.append(f"uriBaseId {name}: {base.get('uri')} is no absolute folder URI")
        results = run.get("results")
        if results is None:
            found.append(f"run {r}: no results array")
            continue
        if len(results) > 25000:
            found.append(f"run {r}: {len(results)} results, more than 25,000")
        for i, res in enumerate(results):
            where = f"result {i}"
            rule = res.get("ruleId")
            index = res.get("ruleIndex")
            if rule not in ids:
                found.append(f"{where}: ruleId {rule!r} names no rule of the driver")
            elif index is not None and ids[index] != rule:
                found.append(f"{where}: ruleIndex {index} is rule {ids[index]}, not {rule}")
            text = res.get("message", {}).get("text", "")
            if not text:
                found.append(f"{where}: no message.text")
            locations = res.get("locations", [])
            if not 1 <= len(locations) <= 1000:
                found.append(f"{where}: {len(locations)} locations (1 to 1000)")
            for loc in locations + res.get("relatedLocations", []):
                phys = loc.get("physicalLocation", {})
                uri = phys.get("artifactLocation", {}).get("uri")
                base = phys.get("artifactLocation", {}).get("uriBaseId")
                if not uri:
                    found.append(f"{where}: a location without a URI")
                if base is not None and base not in bases:
                    found.append(f"{where}: uriBaseId {base} is not in originalUriBaseIds")
                if phys.get("region", {}).get("startLine", 0) < 1:
                    found.append(f"{where}: a region without a start line")
            related = {loc.get("id") for loc in res.get("relatedLocations", [])}
            for link in re.findall(r"\]\((\d+)\)", text):
                if int(link) not in related:
                    found.append(f"{where}: the message links to location {link}, not given")
            if len(res.get("relatedLocations", [])) > 1000:
                found.append(f"{where}: more than 1000 related locations")
    return found


def summary(log):
    for run in log.get("runs", []):
        for res in run.get("results", []):
            phys = res["locations"][0]["physicalLocation"]
            line = f'{res["ruleId"]} {res.get("level", "warning")} ' \
                   f'{phys["artifactLocation"]["uri"]}:{phys["region"]["startLine"]}'
            for loc in res.get("relatedLocations", []):
                line += f' -> {loc["physicalLocation"]["region"]["startLine"]}'
            print(line)


def main():
    schema = json.load(open(sys.argv[1]))
    log = json.load(open(sys.argv[2]))
    validator = jsonschema.Draft4Validator(schema)
    found = [f"schema: {e.message} at {'/'.join(map(str, e.absolute_path))}"
             for e in validator.iter_errors(log)]
    found += problems(log)
    summary(log)
    for p in found:
        print(f"problem: {p}")
    print("ok" if not found else f"{len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
