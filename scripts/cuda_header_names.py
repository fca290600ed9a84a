#!/usr/bin/env python3
"""The names that the headers of pyk's CUDA C++ output declare.

pykc's CUDA C++ (codegen/cuda) includes <cstdint>, <cstdio> and
<type_traits>, and nvcc force-includes cuda_runtime.h, which pulls in the C
and C++ math and standard libraries. A kernel, device function, parameter or
local that the .pyk file names like something those headers declare at
global scope (`div`, `time`, `getenv`, `sincosf`, `dim3`) or define as a
macro (`NULL`, `EOF`, `linux`) breaks the C++ or changes its meaning, so
pyk renames it (ir/SymbolNames.cpp). This script finds those names, so that
no one writes the list by hand:

  1. Compile a probe .cu that includes what pyk's output includes, with
     `nvcc -keep -Xcompiler -dD`, for every GPU architecture nvcc knows: the
     kept .ii files are the preprocessed text that the host compiler and the
     device compiler see (device code differs per architecture), with every
     macro definition (-dD) kept in it, predefined ones included. The CPU
     device compiles the same CUDA C++ for the host, against
     pyk/CudaOnCpu.h, in C++20 (the runtime's dialect, whose <math.h>
     brings std::lerp and the special functions such as std::beta to
     global scope): the host compiler's preprocessed text of that header
     is a third text.
  2. Every `#define NAME` is a name (whether or not it is #undef'd later).
  3. Tokenize the rest (strings, characters, numbers, punctuators) and follow
     the braces: a name is declared at global scope when it appears outside
     every class body, function body and named namespace (an `extern "C"`
     block, an anonymous or inline namespace, an anonymous union and a
     namespace that `using namespace` brings in do not count as scopes).
  4. Over-approximate; renaming a name that did not need it costs nothing,
     missing one is a bug. At global scope a name counts when it is
       a. outside parentheses (declarators, types, initializers: `FILE`,
          `div_t`, `printf`, `x` in `int x = 1;`), except what a `template`
          header declares (`T`) and member names after `::`, `.`, `->`;
       b. followed by `(` at any depth (`int (*signal(int, ...))(int)`),
          or in `(*NAME` / `(&NAME` / `(NAME)` inside one pair of
          parentheses (`typedef void (*fn)(int)`; deeper, it is a
          parameter);
       c. an enumerator of an unscoped enum;
       d. named by `using ...::NAME;` or the name of a namespace.
     Skipped: the inside of `__attribute__((...))`, `__declspec`, `alignas`,
     `asm`, `static_assert`, `noexcept`, `throw`, `[[...]]` (they declare
     nothing, and attribute words like `device`, `shared` would be renamed
     for no reason).
  5. Leave out what isReservedInCxx already renames by rule: names with `__`,
     `_` and a capital, or starting `pyk_`; and what no Python identifier can
     spell (`$`).

usage (each also takes --cxx CXX, the host's C++ compiler, default c++):
  cuda_header_names.py --nvcc NVCC -o TABLE    write the table (a C++ .inc)
  cuda_header_names.py --nvcc NVCC --print     print the names, one a line
  cuda_header_names.py --nvcc NVCC --tokens    print every identifier of the
                                               preprocessed headers (tests)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# What pyk's CUDA C++ includes (CudaEmitter.cpp, CudaHelpers.cpp; nvcc adds
# cuda_runtime.h itself), and what its host launch code includes
# (LaunchEmitter.cpp): there a kernel's or parameter's name meets the macros of
# the C++ standard library (`errno`).
PROBE = "#include <cstdint>\n#include <cstdio>\n#include <type_traits>\n#include <pyk/pyk.h>\n"
RUNTIME_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime", "include")

TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^ ()\\\t\n]*)\((?:.|\n)*?\)(?P=delim)")
  | (?P<string>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<char>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.'])*)
  | (?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<punct>::|->|\.\.\.|[^\sA-Za-z0-9_$])
    """,
    re.VERBOSE,
)

DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_$][A-Za-z0-9_$]*)")

# Constructs whose parenthesized inside declares nothing.
SKIPPED_CALLS = {
    "__attribute__", "__attribute", "__declspec", "alignas", "_Alignas", "asm", "__asm__", "__asm",
    "static_assert", "_Static_assert", "noexcept", "throw", "_Pragma", "__pragma",
}

CV_AND_SPECIFIERS = {"const", "volatile", "static", "inline", "extern", "__inline", "__inline__", "constexpr"}


def run(command, **kwargs):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit("cuda_header_names.py: `%s` failed:\n%s" % (" ".join(command), result.stdout))
    return result.stdout


def preprocessed_headers(nvcc, cxx="c++"):
    """The kept .ii files of the probe, one per compiler pass, and the CPU
    device's header as the host compiler preprocesses it."""
    arches = sorted(set(re.findall(r"compute_(\d+)", run([nvcc, "--list-gpu-arch"]))), key=int)
    if not arches:
        sys.exit("cuda_header_names.py: `%s --list-gpu-arch` names no architecture" % nvcc)
    with tempfile.TemporaryDirectory() as work:
        probe = os.path.join(work, "probe.cu")
        with open(probe, "w") as f:
            f.write(PROBE)
        keep = os.path.join(work, "keep")
        os.mkdir(keep)
        command = [nvcc, "-c", "-keep", "-keep-dir", keep, "-Xcompiler", "-dD", "-I", RUNTIME_INCLUDE, probe,
                   "-o", os.path.join(work, "probe.o")]
        for arch in arches:
            command.append("-gencode=arch=compute_%s,code=compute_%s" % (arch, arch))
        run(command)
        texts = []
        for name in sorted(os.listdir(keep)):
            if name.endswith(".ii"):
                with open(os.path.join(keep, name), encoding="utf-8", errors="replace") as f:
                    texts.append(f.read())
        if len(texts) < 2:
            sys.exit("cuda_header_names.py: nvcc kept %d preprocessed files, expected the host's and the "
                     "device's" % len(texts))
        cpu_probe = os.path.join(work, "cpu_probe.cpp")
        with open(cpu_probe, "w") as f:
            f.write("#include <pyk/CudaOnCpu.h>\n")
        texts.append(run([cxx, "-std=c++20", "-E", "-dD", "-I", RUNTIME_INCLUDE, cpu_probe]))
        return texts


def split(text):
    """(macro names, tokens) of one preprocessed file: directives are lines."""
    macros, tokens = set(), []
    code = []
    for line in text.split("\n"):
        if line.lstrip().startswith("#"):
            match = DEFINE.match(line)
            if match:
                macros.add(match.group(1))
            code.append("")
        else:
            code.append(line)
    for match in TOKEN.finditer("\n".join(code)):
        if match.lastgroup != "space":
            tokens.append((match.lastgroup, match.group(0)))
    return macros, tokens


class Scope:
    def __init__(self, kind, name=None):
        self.kind = kind  # "transparent", "namespace", "enum", "other"
        self.name = name


class GlobalNames:
    """Step 3 and 4 over one token stream."""

    def __init__(self, tokens, opened_namespaces):
        self.tokens = tokens
        self.opened = opened_namespaces
        self.names = set()
        self.using_namespaces = set()

    def at_global(self, scopes):
        return all(s.kind == "transparent" or (s.kind == "namespace" and s.name in self.opened) for s in scopes)

    def skip_balanced(self, i):
        """Index after the balanced (...) or [...] group that starts at i."""
        depth = 0
        while i < len(self.tokens):
            text = self.tokens[i][1]
            if text in "([{":
                depth += 1
            elif text in ")]}":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return i

    def template_header(self, i):
        """(index after `template <...>`, names it declares) for `template` at i."""
        names = set()
        i += 1
        if i >= len(self.tokens) or self.tokens[i][1] != "<":
            return i, names
        depth = 0
        while i < len(self.tokens):
            kind, text = self.tokens[i]
            if text in "([":
                i = self.skip_balanced(i)
                continue
            if text == "<":
                depth += 1
            elif text == ">":
                depth -= 1
                if depth == 0:
                    return i + 1, names
            elif kind == "ident":
                names.add(text)
            i += 1
        return i, names

    def scope_of_brace(self, head):
        """The kind of the scope a `{` opens, from the tokens before it."""
        texts = [t for _, t in head]
        if len(head) >= 2 and head[-1][0] == "string" and texts[-2] == "extern":
            return Scope("transparent")
        if "namespace" in texts:
            after = texts[texts.index("namespace") + 1:]
            names = [t for t in after if re.match(r"[A-Za-z_$]", t)]
            if not names or "inline" in texts[: texts.index("namespace")]:
                return Scope("transparent")
            return Scope("namespace", names[0])
        words = [t for t in texts if t not in CV_AND_SPECIFIERS and t not in SKIPPED_CALLS and t != "typedef"]
        if "enum" in words and "(" not in texts:
            after = words[words.index("enum") + 1:]
            if not after or after[0] not in ("class", "struct"):
                return Scope("enum")
        if words == ["union"]:
            return Scope("transparent")  # an anonymous union's members are the scope's
        return Scope("other")

    def scan(self):
        scopes = []
        head = []  # tokens of the current declaration at this brace level
        template_names = set()
        paren = 0
        paren_stack = []
        i = 0
        tokens = self.tokens
        while i < len(tokens):
            kind, text = tokens[i]
            global_scope = self.at_global(scopes)
            enum_at_global = scopes and scopes[-1].kind == "enum" and self.at_global(scopes[:-1])
            if kind == "ident" and text in SKIPPED_CALLS and i + 1 < len(tokens) and tokens[i + 1][1] == "(":
                head.append(tokens[i])
                i = self.skip_balanced(i + 1)
                continue
            if text == "[" and i + 1 < len(tokens) and tokens[i + 1][1] == "[":
                i = self.skip_balanced(i)
                continue
            if kind == "ident" and text == "template" and global_scope:
                i, declared = self.template_header(i)
                template_names |= declared
                continue
            if text in "([":
                paren += 1
            elif text in ")]":
                paren = max(paren - 1, 0)
            elif text == "{":
                scope = self.scope_of_brace(head)
                if global_scope and scope.kind == "namespace":
                    self.names.add(scope.name)
                scopes.append(scope)
                paren_stack.append((paren, head, template_names))
                paren, head, template_names = 0, [], set()
                i += 1
                continue
            elif text == "}":
                if scopes:
                    closed = scopes.pop()
                    paren, head, template_names = paren_stack.pop()
                    # A body ends its declaration (a function definition);
                    # after a class body the declarators follow.
                    if closed.kind in ("other", "enum") and not head_continues(tokens, i + 1):
                        head, template_names = [], set()
                    elif closed.kind in ("transparent", "namespace"):
                        head, template_names = [], set()
                i += 1
                continue
            elif text == ";" and paren == 0:
                if global_scope:
                    self.using(head)
                head, template_names = [], set()
                i += 1
                continue
            if kind == "ident":
                previous = tokens[i - 1][1] if i else ""
                following = tokens[i + 1][1] if i + 1 < len(tokens) else ""
                member = previous in ("::", ".", "->")
                if global_scope and not member and text not in template_names:
                    if paren == 0 or following == "(":
                        self.names.add(text)
                    elif paren == 1 and previous in ("*", "&", "^") and i >= 2 and tokens[i - 2][1] == "(":
                        self.names.add(text)
                    elif paren == 1 and previous == "(" and following == ")":
                        self.names.add(text)
                if enum_at_global and paren == 0 and previous in ("{", ","):
                    self.names.add(text)
            head.append(tokens[i])
            i += 1

    def using(self, head):
        texts = [t for _, t in head]
        if not texts or texts[0] != "using":
            return
        if len(texts) >= 2 and texts[1] == "namespace":
            self.using_namespaces.add(texts[-1])
            return
        if "=" not in texts and head[-1][0] == "ident":
            self.names.add(texts[-1])


def head_continues(tokens, i):
    """After `}`: does a declarator follow (`} div_t;`), or is it the end?"""
    return i < len(tokens) and tokens[i][1] not in (";", "}", "{") and tokens[i][0] == "ident" and \
        tokens[i][1] not in ("extern", "static", "inline", "template", "typedef", "namespace", "using",
                             "struct", "class", "union", "enum")


def names_in(texts):
    """(names declared at global scope or defined as macros, the macros, every
    identifier) of the preprocessed files `texts`."""
    macros, tokens = set(), set()
    streams = []
    for text in texts:
        file_macros, stream = split(text)
        macros |= file_macros
        streams.append(stream)
        tokens |= {t for kind, t in stream if kind == "ident"}
    opened = set()
    while True:  # `using namespace N` at global scope opens N: scan again
        found, using = set(), set()
        for stream in streams:
            scanner = GlobalNames(stream, opened)
            scanner.scan()
            found |= scanner.names
            using |= scanner.using_namespaces
        if using <= opened:
            break
        opened |= using
    return found | macros, macros, tokens | macros


def needs_listing(name):
    """Step 5: what isReservedInCxx does not already rename by rule."""
    if "$" in name or "__" in name or name.startswith("pyk_"):
        return False
    return not (len(name) > 1 and name[0] == "_" and name[1].isupper())


def write_table(names, macros, nvcc, path):
    version = [line for line in run([nvcc, "--version"]).splitlines() if "release" in line][0]
    lines = [
        "// Generated by scripts/cuda_header_names.py from the CUDA headers that pyk's",
        "// CUDA C++ output sees (" + version + "), and pyk/CudaOnCpu.h as the",
        "// host's compiler sees it in C++20. Do not edit: rerun",
        "//   scripts/cuda_header_names.py --nvcc /usr/local/cuda/bin/nvcc -o ir/CudaHeaderNames.inc",
        "// The test reserved_names_cover_cuda_headers fails when a name is missing.",
        "// Sorted; each entry: {name, whether a header defines it as a macro}.",
    ]
    lines += ['{"%s", %s},' % (name, "true" if name in macros else "false") for name in sorted(names)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nvcc", required=True)
    parser.add_argument("--cxx", default="c++")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("-o", dest="output", help="write the table to this file")
    mode.add_argument("--print", action="store_true", help="print the names")
    mode.add_argument("--tokens", action="store_true", help="print every identifier of the preprocessed headers")
    args = parser.parse_args()
    names, macros, tokens = names_in(preprocessed_headers(args.nvcc, args.cxx))
    if args.tokens:
        print("\n".join(sorted(t for t in tokens if "$" not in t)))
        return
    listed = {n for n in names if needs_listing(n)}
    if args.print:
        print("\n".join(sorted(listed)))
        return
    write_table(listed, macros, args.nvcc, args.output)


if __name__ == "__main__":
    main()
