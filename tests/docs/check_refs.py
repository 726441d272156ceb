#!/usr/bin/env python3
"""Check the documentation references in the repository's code and docs.

A reference is a section id of one of the repository's own docs:
  P<n>  docs/format.md           (the .tgrs wire format)
  F<n>  docs/format.md           (the schema-11 decisions)
  R<n>  docs/runtime-semantics.md
  A<n>  docs/tflm-arena.md
optionally preceded by the doc path ("docs/format.md P4.4"). A doc defines a
section id with a heading "## P4.4 Title" (any heading level; "F1." also ok).

Fails when:
  * a "docs/<name>.md" mentioned in a source or doc file does not exist;
  * a section id does not exist in its doc, or a doc path is followed by an
    id of another doc ("docs/format.md R2.3");
  * anything still points to the unshipped specification (../shared/spec,
    spec/<file>, tgrs-format.md, or a bare "§" section sign).

Usage: check_refs.py [repo_root]   (exit 0 = all references resolve)
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), '..', '..'))
EXTS = ('.c', '.h', '.cpp', '.hpp', '.md', '.ts', '.py', '.txt', '.cmake', '.sh', '.proto')
SKIP_DIRS = {'.git', 'node_modules', 'third_party', 'dist'}
PREFIX_DOC = {'P': 'docs/format.md', 'F': 'docs/format.md',
              'R': 'docs/runtime-semantics.md', 'A': 'docs/tflm-arena.md'}
# "§" is allowed only for documents outside this repository that keep their
# own numbering (the shared corpus MANIFEST, the toolchain notes).
SECTION_SIGN_OK = re.compile(r'(MANIFEST|toolchains\.md) §')
FORBIDDEN = re.compile(r'\.\./shared/spec|(?<![\w/])spec/(tgrs|runtime|tflm)|tgrs-format\.md|shared/spec/')
DOC_PATH = re.compile(r'docs/([\w.-]+?)\.md\b')
SECTION = re.compile(r'(?<![\w.])([PFRA])(\d+(?:\.\d+)*)(?![\w])')
HEADING = re.compile(r'^#+\s+([PFRA]\d+(?:\.\d+)*)\b')


def source_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel = os.path.relpath(dirpath, ROOT)
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS
                       and not (rel == '.' and d.startswith('build'))]
        for f in filenames:
            if f.endswith(EXTS):
                yield os.path.join(dirpath, f)


def anchors(doc):
    path = os.path.join(ROOT, doc)
    ids = set()
    if os.path.exists(path):
        with open(path, encoding='utf-8') as fh:
            in_code = False
            for line in fh:
                if line.startswith('```'):
                    in_code = not in_code
                m = None if in_code else HEADING.match(line)
                if m:
                    ids.add(m.group(1))
    return ids


def main():
    ids = {doc: anchors(doc) for doc in set(PREFIX_DOC.values())}
    errors = []
    refs = 0
    me = os.path.abspath(__file__)
    for path in source_files():
        if os.path.abspath(path) == me:
            continue
        rel = os.path.relpath(path, ROOT)
        try:
            text = open(path, encoding='utf-8').read()
        except UnicodeDecodeError:
            continue
        is_doc = rel in ids
        for n, line in enumerate(text.split('\n'), 1):
            where = '%s:%d' % (rel, n)
            if FORBIDDEN.search(line):
                errors.append('%s: points to the unshipped spec: %s' % (where, line.strip()))
            if '§' in line and not SECTION_SIGN_OK.search(line):
                errors.append('%s: "§" reference (use docs/<doc>.md <id>): %s' % (where, line.strip()))
            for m in DOC_PATH.finditer(line):
                doc = 'docs/%s.md' % m.group(1)
                if not os.path.exists(os.path.join(ROOT, doc)):
                    errors.append('%s: %s does not exist' % (where, doc))
                    continue
                nxt = SECTION.match(line, m.end() + 1) if line[m.end():m.end() + 1] == ' ' else None
                if nxt and doc in ids and PREFIX_DOC[nxt.group(1)] != doc:
                    errors.append('%s: %s is not a section of %s' % (where, nxt.group(0), doc))
            # Section ids: checked in every doc, and in source files on lines
            # that name one of the three docs or sit in a comment.
            for m in SECTION.finditer(line):
                doc = PREFIX_DOC[m.group(1)]
                if not (is_doc or 'docs/' in line or re.match(r'\s*(//|/?\*|#)', line)):
                    continue
                if rel.endswith('.md') and not is_doc and 'docs/' not in line:
                    continue
                refs += 1
                if m.group(0) not in ids[doc]:
                    errors.append('%s: %s %s has no such section' % (where, doc, m.group(0)))
    for e in errors:
        print(e)
    print('check_refs: %d section references, %d errors' % (refs, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
