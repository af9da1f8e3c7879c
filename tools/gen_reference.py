#!/usr/bin/env python3
"""Writes docs/reference.md, the API reference, from the public headers include/dod/*.h.

One page, not one per module: a reader looking for a name types it into the browser's or the
editor's search and lands on it whatever module it is in, and the whole API (a few hundred
names) is about 2,000 lines, which a browser shows at once. The page opens with a table of the
modules; each module is a heading, the header's opening comment (its overview), a line of links
to its names, then one entry per declaration in header order (the order the author explains
things in, types next to the calls that take them).

What is a module: every header `dod/dod.h` includes, in that order, then any other
include/dod/*.h in name order (a header not yet added to dod.h still appears). dod.h itself is
the umbrella and has no entry.

What is public, and what an entry shows:
  - functions: DOD_API declarations (the signature without DOD_API, re-wrapped at 100
    columns) and static inline definitions (the signature only);
  - types: typedefs and struct declarations, as written in the header with their field
    comments; the fields after a comment line saying they are private ("private fields
    follow", "private", "all fields private") are shown as `...`; a type whose only comment
    is "private" has no entry;
  - macros: names starting with DOD_ (header guards aside) and lowercase dod_ macros that do
    not merely inline a function of the same name. A macro shows its definition, except a
    function-like one with continuation lines (a code generator), which shows its name and
    parameters; a macro defined inside #if / #ifdef shows the whole conditional block, every
    branch, as written;
  - names starting with dod__ / DOD__ are private and left out, and so are other projects'
    names that are not dod's (the Arrow C Data Interface's ARROW_* flags). The __cplusplus
    branches are skipped for declarations (they hold extern "C"): the page shows the C view.
Every entry has the comment block right above it. Declarations written under one comment
without a blank line between them (dod_table_sort_u32 / _i32 / _f32) share one entry, and so do
static inline functions that follow a commented entry, separated only by blank lines
(dod_csr_row_len, _row_begin, _row_end). An entry with no comment of its own falls back on its
trailing comment (`/* opaque */`), or points at the module overview when that names it.
Comments become Markdown: prose paragraphs are joined and escaped, lines indented two or more
columns (aligned tables, lists, examples) become preformatted blocks, and a line starting
"Errors" or "Thread safety" starts a paragraph of its own.

The typed layers (DOD_WORLD, DOD_TABLE_TYPED, DOD_AOSOA: GENERATORS below) also show what they
generate. The example declaration is the one in the header's opening comment (the indented
lines from the first `typedef` / `#define` up to the macro's call; annotation lines starting
with "(" are dropped), so the page follows the header when the example changes (a new
code-generating macro is added to GENERATORS, with an example in its header). The C
preprocessor expands it (`CC -E -P`, CC from --cc, else $CC, else cc: gcc or clang), and the
page lists the declarations found in the expansion: structs with one member a line and
functions as signatures, printed from the tokens by this script, not as the compiler spaced
them. So the output does not depend on the compiler or its version (gcc and clang give the
same page; __attribute__ is dropped), and no formatter is needed. Without a C compiler the
script stops with a message saying so (the ctest that compares the page runs only where CMake
found gcc or clang).

The same headers give the same bytes: nothing depends on the date, the machine or the order
a directory is listed in.

Usage: tools/gen_reference.py [OUT_FILE] [--cc COMPILER]   (default: docs/reference.md)"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include"
PUBLIC = INCLUDE / "dod"
DEFAULT_OUT = ROOT / "docs" / "reference.md"
WIDTH = 100
# Macros whose expansion declares types and functions named after their arguments.
GENERATORS = ("DOD_WORLD", "DOD_TABLE_TYPED", "DOD_AOSOA")
# Comment lines (inside a struct) after which the fields are private.
PRIVATE_MARKER = re.compile(r"^\s*/\*\s*(all fields private|private( fields follow)?)\s*\*/\s*$")
# Comment lines that start a paragraph of their own, their first word in bold.
LEAD_WORDS = ("Errors", "Thread safety")
TOKEN = re.compile(r"""\s+|/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'"""
                   r"""|\w+|::|->|\.\.\.|##|\S""", re.S)
DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$", re.S)
DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)(\([^)]*\))?")


def fail(message):
    sys.exit(f"gen_reference: {message}")


# ---- reading a header ------------------------------------------------------------------------

class Item:
    """A comment, a preprocessor directive or a declaration, with the lines it spans."""

    def __init__(self, kind, text, first, last):
        self.kind, self.text, self.first, self.last = kind, text, first, last
        self.trailing = None  # a declaration's comment starting on its last line
        self.blocks = ()      # ids of the enclosing #if blocks, outermost first (guard aside)


def skip_comment(text, i):
    """The index after the comment starting at i."""
    if text.startswith("//", i):
        j = text.find("\n", i)
        return len(text) if j < 0 else j
    j = text.find("*/", i + 2)
    if j < 0:
        fail("unterminated comment")
    return j + 2


def skip_literal(text, i):
    """The index after the string or character literal starting at i."""
    quote, j = text[i], i + 1
    while j < len(text) and text[j] != quote:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def directive_end(text, i):
    """The index of the newline ending the directive at i (continuations and comments inside)."""
    while i < len(text):
        if text.startswith("/*", i) or text.startswith("//", i):
            i = skip_comment(text, i)
        elif text[i] == "\\" and text.startswith("\n", i + 1):
            i += 2
        elif text[i] == "\n":
            return i
        else:
            i += 1
    return i


def declaration_end(text, i):
    """The index after the declaration at i: its `;` at depth 0, or a function body's `}`."""
    depth, body = 0, False
    last_code = ""
    while i < len(text):
        c = text[i]
        if text.startswith("/*", i) or text.startswith("//", i):
            i = skip_comment(text, i)
            continue
        if c in "\"'":
            i = skip_literal(text, i)
            last_code = c
            continue
        if c in "([{":
            if c == "{" and depth == 0 and last_code == ")":
                body = True
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0 and c == "}" and body:
                return i + 1
        elif c == ";" and depth == 0:
            return i + 1
        if not c.isspace():
            last_code = c
        i += 1
    fail("a declaration runs to the end of the file")


class Header:
    """A header split into items, with its #if blocks (the include guard is not one)."""

    def __init__(self, path):
        self.name = f"dod/{path.name}"
        self.text = path.read_text()
        self.lines = self.text.split("\n")
        self.block_lines = {}  # block id -> (first line, last line), 1-based
        self.items = self.scan()

    def scan(self):
        text, items = self.text, []
        stack = []        # open #if blocks: [id or None (the guard), first line, skip?, cpp]
        guard = None      # the include guard's macro
        i, line, line_start = 0, 1, True
        while i < len(text):
            c = text[i]
            if c == "\n":
                i, line, line_start = i + 1, line + 1, True
                continue
            if c.isspace():
                i += 1
                continue
            blocks = tuple(entry[0] for entry in stack if entry[0] is not None)
            skipping = any(entry[2] for entry in stack)
            if c == "#" and line_start:
                end = directive_end(text, i)
                item = Item("directive", text[i:end], line, line + text.count("\n", i, end))
                item.blocks = blocks
                first_code = all(it.kind == "comment" for it in items)
                self.directive(item, stack)
                if item.verb == "ifndef" and first_code:
                    guard = item.arg
                    stack[-1][0] = None
                elif item.verb == "define" and item.name == guard:
                    item.verb = "guard"
                items.append(item)
            elif text.startswith(("/*", "//"), i):
                end = skip_comment(text, i)
                item = Item("comment", text[i:end], line, line + text.count("\n", i, end))
                prev = items[-1] if items else None
                if prev and prev.kind == "declaration" and prev.last == line:
                    prev.trailing = item.text
                elif not skipping:
                    items.append(item)
            elif skipping:  # a __cplusplus branch: extern "C" { and its }
                end = text.find("\n", i)
                end = len(text) if end < 0 else end
            else:
                end = declaration_end(text, i)
                item = Item("declaration", text[i:end], line, line + text.count("\n", i, end))
                item.blocks = blocks
                items.append(item)
            line += text.count("\n", i, end)
            i, line_start = end, False
        if stack:
            fail(f"{self.name}: an #if is not closed")
        return items

    def directive(self, item, stack):
        m = DIRECTIVE.match(item.text)
        item.verb, item.arg = (m.group(1), m.group(2).strip()) if m else ("", "")
        item.name = None
        if item.verb in ("if", "ifdef", "ifndef"):
            cpp = None
            if re.fullmatch(r"(defined\s*\(?\s*)?__cplusplus\s*\)?", item.arg):
                cpp = "then" if item.verb != "ifndef" else "else"
            stack.append([len(self.block_lines), item.first, cpp == "then", cpp])
            self.block_lines[stack[-1][0]] = (item.first, None)
        elif item.verb in ("else", "elif"):
            if not stack:
                fail(f"{self.name}:{item.first}: #{item.verb} without #if")
            entry = stack[-1]
            entry[2] = entry[3] == "else" if entry[3] else False
        elif item.verb == "endif":
            if not stack:
                fail(f"{self.name}:{item.first}: #endif without #if")
            entry = stack.pop()
            if entry[0] is not None:
                self.block_lines[entry[0]] = (entry[1], item.last)
        elif item.verb == "define":
            m = DEFINE.match(item.text)
            item.name, item.params = m.group(1), m.group(2) or ""

    def block_text(self, block):
        first, last = self.block_lines[block]
        return "\n".join(self.lines[first - 1:last])


# ---- tokens and signatures -------------------------------------------------------------------

def tokens(text):
    """C tokens of text, comments and whitespace dropped."""
    return [t for t in TOKEN.findall(text) if not t.isspace() and not t.startswith(("/*", "//"))]


def drop_attributes(toks):
    """toks without `__attribute__((...))` and DOD_API."""
    out, i = [], 0
    while i < len(toks):
        if toks[i] == "__attribute__":
            depth, i = 0, i + 1
            while i < len(toks):
                depth += {"(": 1, ")": -1}.get(toks[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        if toks[i] != "DOD_API":
            out.append(toks[i])
        i += 1
    return out


def join(toks):
    """Tokens printed the way this project writes declarations: `const char *name(int a, ...)`."""
    out = ""
    for k, t in enumerate(toks):
        prev = toks[k - 1] if k else None
        if prev is None:
            space = False
        elif t in (",", ";", ")", "[", "]", ".", "->") or prev in ("(", "[", "*", ".", "->"):
            space = False
        elif t == "(":
            space = toks[k + 1:k + 2] == ["*"] and prev != "("  # `void (*hook)(...)`
        elif t == "*":
            space = prev not in ("(", "*")
        else:
            space = True
        out += (" " if space else "") + t
    return out


def wrap(signature):
    """A signature longer than WIDTH, broken after commas of its last parameter list."""
    if len(signature) <= WIDTH:
        return signature
    depth, open_at = 0, None
    for k, c in enumerate(signature):
        if c == "(":
            if depth == 0:
                open_at = k
            depth += 1
        elif c == ")":
            depth -= 1
    if open_at is None:
        return signature
    head, params = signature[:open_at + 1], signature[open_at + 1:]
    parts, depth, start = [], 0, 0
    for k, c in enumerate(params):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(params[start:k + 1])
            start = k + 2
    parts.append(params[start:])
    lines, current = [], head
    for part in parts:
        if current != head and len(current) + 1 + len(part) > WIDTH:
            lines.append(current)
            current = " " * len(head) + part
        else:
            current += ("" if current == head else " ") + part
    lines.append(current)
    return "\n".join(lines)


def function_signature(text):
    """`type name(params);` of a declaration or a definition (its body dropped)."""
    toks = drop_attributes(tokens(text))
    if "{" in toks:
        toks = toks[:toks.index("{")] + [";"]
    return wrap(join(toks))


def declared_name(toks):
    """The name a declaration declares."""
    body = toks.index("{") if "{" in toks else len(toks)
    head = toks[:body]
    if toks[:2] == ["enum", "{"]:
        return toks[2]  # an anonymous enum: its first constant
    if toks[0] == "typedef" and body < len(toks):
        return [t for t in toks[body:] if re.match(r"\w", t)][-1]  # after the closing brace
    for k in range(len(head) - 2):
        if head[k] == "(" and head[k + 1] == "*" and re.match(r"\w", head[k + 2]):
            return head[k + 2]  # a function pointer typedef
    if "(" in head:
        return head[head.index("(") - 1]  # a function
    if toks[0] == "typedef" or body == len(toks):
        return [t for t in toks if re.match(r"\w", t)][-1]
    return f"{toks[0]} {toks[1]}"  # `struct ArrowSchema { ... };`


def elide_private(text):
    """A struct's text with its private fields (after a private marker line) shown as `...`."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if PRIVATE_MARKER.match(line) and k > 0:
            closing = max(j for j, l in enumerate(lines) if l.lstrip().startswith("}"))
            if closing > k + 1:
                indent = line[:len(line) - len(line.lstrip())]
                return "\n".join(lines[:k + 1] + [indent + "..."] + lines[closing:])
    return text


# ---- comments to Markdown --------------------------------------------------------------------

def comment_lines(raw):
    """The text of a /* */ comment, one string per line, its relative indentation kept."""
    if raw.startswith("//"):
        return [raw[2:].strip()]
    lines = raw[2:-2].split("\n")
    out = []
    for k, line in enumerate(lines):
        if k == 0:
            s = line[1:] if line.startswith(" ") else line
        else:
            s = line.lstrip()
            if s.startswith("*"):
                s = s[1:]
                s = s[1:] if s.startswith(" ") else s
        out.append(s.rstrip())
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


def escape_text(s):
    """Markdown-escape plain text (outside code spans) so it renders as written."""
    out = []
    for k, c in enumerate(s):
        prev = s[k - 1] if k else " "
        nxt = s[k + 1] if k + 1 < len(s) else " "
        if c == "\\" or c == "~":
            out.append("\\" + c)
        elif c == "*":
            out.append("*" if prev.isspace() and nxt.isspace() else "\\*")
        elif c == "_":
            run_start, run_end = k, k
            while run_start > 0 and s[run_start - 1] == "_":
                run_start -= 1
            while run_end + 1 < len(s) and s[run_end + 1] == "_":
                run_end += 1
            before = s[run_start - 1] if run_start else " "
            after = s[run_end + 1] if run_end + 1 < len(s) else " "
            out.append("_" if before.isalnum() and after.isalnum() else "\\_")
        elif c == "<":
            out.append("\\<" if nxt.isalpha() or nxt in "/!?" else "<")
        elif c == "]":
            out.append("\\]" if nxt in "([" else "]")
        elif c == "&" and re.match(r"&#?\w+;", s[k:]):
            out.append("&amp;")
        elif c == "|":
            out.append("\\|")
        else:
            out.append(c)
    return "".join(out)


def inline_markdown(s):
    """A paragraph's text as Markdown: `code spans` kept, everything else escaped."""
    parts = s.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: escape the last one
        parts[-2] = parts[-2] + "\\`" + parts.pop()
    out = "".join(escape_text(p) if k % 2 == 0 else f"`{p}`" for k, p in enumerate(parts))
    if re.match(r"[#>+=-]|\d+[.)]", out):
        out = "\\" + out if not out[0].isdigit() else re.sub(r"^(\d+)([.)])", r"\1\\\2", out)
    return out


def comment_markdown(lines):
    """Comment lines as Markdown paragraphs and preformatted blocks."""
    blocks, para, pre = [], [], []

    def flush():
        if para:
            text = inline_markdown(" ".join(para))
            for word in LEAD_WORDS:
                if text.startswith(word):
                    text = f"**{word}**" + text[len(word):]
            blocks.append(text)
            para.clear()
        if pre:
            cut = min(len(l) - len(l.lstrip()) for l in pre)
            blocks.append("```\n" + "\n".join(l[cut:] for l in pre) + "\n```")
            pre.clear()

    for line in lines:
        indent = len(line) - len(line.lstrip())
        if not line.strip():
            flush()
        elif indent >= 2:
            if para:
                flush()
            pre.append(line)
        else:
            if pre or line.startswith(LEAD_WORDS):
                flush()
            para.append(line.strip())
    flush()
    return "\n\n".join(blocks)


def slug(heading, seen):
    """The anchor GitHub gives a heading (lowercase, punctuation dropped, spaces to hyphens)."""
    s = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
    n = seen.get(s, 0)
    seen[s] = n + 1
    return s if n == 0 else f"{s}-{n}"


# ---- entries ---------------------------------------------------------------------------------

class Member:
    """One declared name of an entry."""

    def __init__(self, name, kind, code, item):
        self.name, self.kind, self.code, self.item = name, kind, code, item


class Entry:
    """Names declared under one comment: the comment, the members, the items they came from."""

    def __init__(self, doc):
        self.doc, self.members, self.items = doc, [], []


def is_private(name):
    return name.startswith(("dod__", "DOD__"))


def members_of(item, header, functions):
    """The public names an item declares, or []."""
    if item.kind == "directive":
        if item.verb != "define" or is_private(item.name):
            return []
        name = item.name
        if not name.startswith(("DOD_", "dod_")) or (name.startswith("dod_") and name in functions):
            return []
        if item.blocks:
            code = header.block_text(item.blocks[0])
        elif "\\\n" in item.text and item.params:  # a function-like macro's body: not API
            code = f"#define {name}{item.params}"
        elif "\\\n" in item.text:
            code = " ".join(item.text.replace("\\\n", " ").split())
        else:
            code = item.text.strip()
        return [Member(name, "macro", code, item)]
    toks = tokens(item.text)
    if not toks or toks[0] == "extern" and toks[1:2] == ['"C"']:
        return []
    name = declared_name(toks)
    if is_private(name) or name.startswith(("struct dod__",)):
        return []
    if toks[0] == "DOD_API":
        return [Member(name, "function", function_signature(item.text), item)]
    if "static" in toks[:3] and "{" in toks:
        return [Member(name, "function", function_signature(item.text), item)]
    if toks[0] == "typedef" and "{" not in toks:
        code = wrap(join(toks))
    else:
        code = elide_private(item.text.strip())
    if item.trailing:
        code += " " + item.trailing
    return [Member(name, "type", code, item)]


def own_comment(member):
    """The comment on the declaration's own line (trailing, or after a struct's `{`)."""
    if member.item.trailing:
        return member.item.trailing
    first = member.item.text.split("\n")[0]
    m = re.search(r"/\*(.*?)\*/\s*$", first)
    return m.group(0) if m else None


def entries_of(header):
    """The header's overview (lines) and its entries, in header order."""
    items = header.items
    overview = comment_lines(items[0].text) if items and items[0].kind == "comment" else []
    functions = {declared_name(tokens(item.text)) for item in items
                 if item.kind == "declaration" and item.text.startswith("DOD_API")}
    entries = []
    pending = None  # the comment right above, not yet given to an entry
    current = None  # the entry the next declaration joins (no blank line or comment between)
    last = None     # the entry the previous item made or joined
    prev = None
    for item in items[1 if overview else 0:]:
        blank = prev is not None and item.first > prev.last + 1
        follows_last = last is not None and prev is not None and prev in last.items
        prev = item
        if blank:
            pending, current = None, None
        if item.kind == "comment":
            pending, current = item, None
            continue
        members = members_of(item, header, functions)
        if not members:
            continue
        inline = item.kind == "declaration" and members[0].kind == "function" and \
            item.text.startswith("static")
        if current is None and pending is None and inline and follows_last:
            current = last  # dod_csr_row_begin and _row_end under dod_csr_row_len's comment
        if current is None:
            current = Entry(pending)
            pending = None
            entries.append(current)
        for member in members:
            same = [m for m in current.members if m.name == member.name]
            if not same:
                current.members.append(member)
            elif member.code not in same[0].code:
                same[0].code += "\n" + member.code
        current.items.append(item)
        last = current
    for entry in entries:
        if entry.doc is None and len(entry.members) == 1:
            own = own_comment(entry.members[0])
            if own and comment_lines(own) == ["private"]:
                entry.members = []
    return overview, [e for e in entries if e.members]


# ---- the typed layers ------------------------------------------------------------------------

def example_of(overview, macro, header_name):
    """The example declaration of `macro` in a header's opening comment: (setup, call)."""
    for k, line in enumerate(overview):
        if line.lstrip().startswith(macro + "("):
            indent = len(line) - len(line.lstrip())
            start = k
            while start > 0 and overview[start - 1].strip() and \
                    len(overview[start - 1]) - len(overview[start - 1].lstrip()) >= indent:
                start -= 1
            setup = [l[indent:] for l in overview[start:k] if not l.lstrip().startswith("(")]
            while setup and not setup[0].startswith(("typedef", "#define")):
                setup.pop(0)
            call = line.strip()
            depth = 0
            for j, c in enumerate(call):
                depth += {"(": 1, ")": -1}.get(c, 0)
                if c == ")" and depth == 0:
                    call = call[:j + 1]
                    break
            return setup, call
    fail(f"{header_name}: no example `{macro}(...)` in the opening comment")


def find_cc(cc):
    """The compiler as a command: a path (spaces allowed), or a command line ("gcc -m32")."""
    cc = cc or os.environ.get("CC") or "cc"
    command = [cc] if shutil.which(cc) else shlex.split(cc)
    if not command or not shutil.which(command[0]):
        fail(f"no C compiler ({cc}) to expand the typed layers' examples: install gcc or clang, "
             "or pass --cc")
    return command


def expand(cc, setup, call):
    """The declarations the C preprocessor makes of `call`, after `setup`, as printed code."""
    marker = "dod__reference_marker"
    source = "#include <dod/dod.h>\n" + "\n".join(setup) + f"\nint {marker};\n{call}\n"
    command = cc + ["-E", "-P", "-std=c11", "-I", str(INCLUDE), "-x", "c", "-"]
    run = subprocess.run(command, input=source, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"{' '.join(command)} failed on the example {call}:\n{run.stderr}")
    text = run.stdout.split(marker, 1)[1].split(";", 1)[1]
    out = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        end = declaration_end(text, i)
        out.append(generated_code(text[i:end]))
        i = end
    return out


def generated_code(text):
    """One generated declaration: a struct one member a line, a function as its signature."""
    toks = drop_attributes(tokens(text))
    if toks[0] == "typedef" and "{" in toks and toks[1] in ("struct", "union"):
        body = toks[toks.index("{") + 1:len(toks) - 1 - toks[::-1].index("}")]
        members, current, depth = [], [], 0
        for t in body:
            current.append(t)
            depth += {"{": 1, "}": -1, "(": 1, ")": -1}.get(t, 0)
            if t == ";" and depth == 0:
                members.append("    " + join(current))
                current = []
        head = join(toks[:toks.index("{")]) + " {"
        tail = "} " + join(toks[len(toks) - toks[::-1].index("}"):])
        return "\n".join([head] + members + [tail])
    if "{" in toks and toks.index("{") > 0 and toks[toks.index("{") - 1] == ")":
        return function_signature(text)
    return wrap(join(toks))


def code_listing(codes):
    """Declarations one after another, a blank line around those of several lines."""
    out = []
    for k, code in enumerate(codes):
        if k and ("\n" in code or "\n" in codes[k - 1]):
            out.append("")
        out.append(code)
    return "\n".join(out)


# ---- the page --------------------------------------------------------------------------------

def module_headers():
    """Every public header but dod.h: dod.h's include order, then any other by name."""
    umbrella = (PUBLIC / "dod.h").read_text()
    order = re.findall(r"^\s*#\s*include\s*<dod/([\w.]+)>", umbrella, re.M)
    rest = sorted(p.name for p in PUBLIC.glob("*.h") if p.name not in order and p.name != "dod.h")
    return [PUBLIC / name for name in order + rest if (PUBLIC / name).is_file()]


def summary(overview, name):
    """The first sentence of an overview, without its `dod/x.h:` lead."""
    first = []
    for line in overview:
        if not line.strip():
            break
        first.append(line.strip())
    text = " ".join(first)
    text = re.sub(r"^" + re.escape(name) + r":\s*", "", text)
    m = re.search(r"\.(\s|$)", text)
    return text[:m.start()] if m else text


INTRO = (
    "Every public function, type and macro of dod, with the comment above it in its header "
    "(generated from `include/dod/`, so it says what the headers say; a test fails when it is "
    "stale). Search the page for a name (`dod_world_spawn`, `DOD_E_FULL`). The rules every module "
    "follows (lifecycle, NULL, statuses, names) are in [api.md](api.md); the typed layers "
    "(`DOD_WORLD`, `DOD_TABLE_TYPED`, `DOD_AOSOA`) list what they generate for the example in "
    "their header. `#include <dod/dod.h>` includes every module.")


class Page:
    """The Markdown being written, the anchors taken so far and the names left without a comment."""

    def __init__(self, cc):
        self.cc, self.seen, self.undocumented = cc, {}, []

    def anchor(self, heading):
        return slug(heading.replace("`", ""), self.seen)

    def entry(self, entry, header, overview):
        """An entry's Markdown, its anchor, and the names its generator made for the example."""
        title = ", ".join(f"`{m.name}`" for m in entry.members)
        anchor = self.anchor(title)
        codes = []
        for m in entry.members:  # two macros of one #if block show it once
            if m.code not in codes:
                codes.append(m.code)
        body = [f"### {title}", "", "```c", code_listing(codes), "```"]
        if entry.doc is not None:
            body += ["", comment_markdown(comment_lines(entry.doc.text))]
        elif not any(own_comment(m) for m in entry.members):
            mentioned = " ".join(overview)
            if any(re.search(rf"\b{m.name}\b", mentioned) for m in entry.members):
                body += ["", "See the module's overview above."]
            self.undocumented += [f"{header.name}: {m.name}" for m in entry.members
                                  if m.kind != "type"]
        generated = []
        for m in entry.members:
            if m.name in GENERATORS:
                setup, call = example_of(overview, m.name, header.name)
                code = expand(self.cc, setup, call)
                generated += [declared_name(tokens(c)) for c in code]
                body += ["", "For the example in the header's opening comment,", "",
                         "```c", "\n".join(setup + [call]), "```", "",
                         "the C preprocessor's expansion declares:", "",
                         "```c", code_listing(code), "```"]
        return "\n".join(body), anchor, generated

    def module(self, header, overview, entries):
        """A module's section: heading, overview, links to its names, entries."""
        names = {"function": [], "type": [], "macro": []}
        bodies, generated = [], []
        for entry in entries:
            body, anchor, made = self.entry(entry, header, overview)
            bodies.append(body)
            for m in entry.members:
                names[m.kind].append(f"[`{m.name}`](#{anchor})")
            generated += [f"[`{name}`](#{anchor})" for name in made]
        index = [f"{label}: " + ", ".join(names[kind]) + "."
                 for kind, label in (("function", "Functions"), ("type", "Types"),
                                     ("macro", "Macros")) if names[kind]]
        if generated:
            index.append("Generated for the example: " + ", ".join(generated) + ".")
        return [f"## {header.name}", comment_markdown(overview), "\n\n".join(index)] + bodies


def render(cc):
    """The whole page."""
    modules = []
    for path in module_headers():
        header = Header(path)
        modules.append((header,) + entries_of(header))
    page = Page(cc)
    out = ["# API reference",
           "<!-- Generated by tools/gen_reference.py from include/dod/*.h: do not edit; change a "
           "header, then run python3 tools/gen_reference.py. -->",
           INTRO]
    page.anchor("API reference")
    table = ["| module | what |", "|---|---|"]
    for header, overview, _ in modules:
        table.append(f"| [`{header.name}`](#{page.anchor(header.name)}) | "
                     f"{inline_markdown(summary(overview, header.name))} |")
    out.append("\n".join(table))
    for module in modules:
        out += page.module(*module)
    for name in page.undocumented:
        print(f"gen_reference: no comment above {name}", file=sys.stderr)
    return "\n\n".join(out) + "\n"


def main(argv):
    args, cc, out = list(argv), None, DEFAULT_OUT
    if "--cc" in args:
        k = args.index("--cc")
        if k + 1 >= len(args):
            fail("--cc needs a compiler")
        cc = args[k + 1]
        del args[k:k + 2]
    if len(args) > 1:
        fail("usage: tools/gen_reference.py [OUT_FILE] [--cc COMPILER]")
    if args:
        out = pathlib.Path(args[0])
    text = render(find_cc(cc))
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="\n") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
