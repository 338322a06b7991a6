#!/usr/bin/env python3
"""The installed tool, as a package maintainer gets it from `cmake --install`.

Usage: check_install.py SOURCE_DIR BUILD_DIR SANITIZED RUNTIME_DIR NVCC PLACED_FILE...

Installs BUILD_DIR into a temporary prefix, then moves the prefix elsewhere (an installed
tool finds its files relative to itself), and checks:
- every file is where the GNU layout puts it: the tool, the man page, bash completion, the
  docs, and in RUNTIME_DIR (relative to the prefix) the driver, the emulator's HIP runtime
  and every PLACED_FILE's name (the files convert places beside its output);
- the tool never reads the build tree: with a file of its runtime directory removed, it says
  that file is missing; and (unless SANITIZED is ON: the sanitizers keep their sources'
  paths) it names no path of the build machine (SOURCE_DIR, BUILD_DIR);
- --version names the version, the commit and LLVM's version;
- the installed tool converts the bundled example (built by NVCC) with a report that names
  the tool, places the installed libcuda.so.1 beside it, and the converted program passes on
  the CPU driver and, through `run`, on the emulator;
- a converted program whose libcuda.so.1 links to the installed one translates a PTX file it
  loads with the installed tool, which it finds with none in PATH;
- the man page renders without a warning and names every option of --help and every
  environment variable of the user guide;
- bash completion offers every option of convert's --help.
"""
import json
import os
import re
import shutil
import sys
import tempfile

from checks import check, failures, run, summary



def help_options(text):
    """The options a --help text names: -x, --long and --long= (the = kept)."""
    return set(re.findall(r"(?<![\w/-])(--?[A-Za-z][\w-]*=?)", text))


def main():
    source, build, sanitized, runtime_dir, nvcc, *placed = sys.argv[1:]
    work = tempfile.mkdtemp(prefix="zc-install-")
    try:
        installed = os.path.join(work, "staged", "usr")
        result = run(["cmake", "--install", build, "--prefix", installed])
        check(result.returncode == 0, "cmake --install: " + result.stderr.strip()[-300:])
        prefix = os.path.join(work, "moved", "usr")
        os.makedirs(os.path.dirname(prefix))
        os.rename(installed, prefix)

        tool = os.path.join(prefix, "bin", "zluda-convert")
        runtime = os.path.join(prefix, runtime_dir)
        man = os.path.join(prefix, "share", "man", "man1", "zluda-convert.1")
        completion = os.path.join(prefix, "share", "bash-completion", "completions", "zluda-convert")
        expected = [tool, man, completion,
                    os.path.join(prefix, "share", "doc", "zluda-convert", "README.md"),
                    os.path.join(prefix, "share", "doc", "zluda-convert", "user-guide.md"),
                    os.path.join(runtime, "libcuda.so.1"), os.path.join(runtime, "libzc-emu-hip.so")]
        expected += [os.path.join(runtime, os.path.basename(p)) for p in placed]
        for path in dict.fromkeys(expected):
            check(os.path.isfile(path), "installed " + os.path.relpath(path, prefix))
        if failures:
            return 1

        if sanitized != "ON":  # ASan and UBSan keep their sources' paths for their reports
            with open(tool, "rb") as f:
                data = f.read()
            for root in {os.path.realpath(source), os.path.realpath(build)}:
                check(root.encode() not in data, f"the tool names no build path ({root})")

        version = run([tool, "--version"]).stdout.strip()
        check(re.fullmatch(r"zluda-convert \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown|\S+), "
                           r"LLVM \d+\.\d+\.\d+\)", version) is not None, "--version: " + version)

        example = os.path.join(work, "vector_add")
        result = run([nvcc, "-arch=sm_80", "-o", example, os.path.join(source, "examples", "vector_add.cu")])
        check(result.returncode == 0, "nvcc builds the example " + result.stderr[-300:])
        os.makedirs(os.path.join(work, "out"))
        out = os.path.join(work, "out", "vector_add")
        report = os.path.join(work, "report.json")
        result = run([tool, example, "-o", out, "--offload-arch=gfx1100,host", "--report=" + report, "-q"])
        check(result.returncode == 0, "the installed tool converts the example " + result.stderr[-300:])
        with open(os.path.join(runtime, "libcuda.so.1"), "rb") as a, \
                open(os.path.join(work, "out", "libcuda.so.1"), "rb") as b:
            check(a.read() == b.read(), "the libcuda.so.1 placed is the installed one")
        with open(report) as f:
            tool_field = json.load(f).get("tool", {})
        check(tool_field.get("name") == "zluda-convert" and tool_field.get("version") in version
              and tool_field.get("commit") in version and tool_field.get("llvm") in version,
              f"the report names the tool as --version does: {tool_field}")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ZLUDA_CONVERT_", "ZC_EMU_"))}
        result = run([out], env=dict(env, ZLUDA_CONVERT_DRIVER="host"))
        check(result.returncode == 0 and result.stdout.startswith("PASS"),
              "the converted example on the CPU driver: " + (result.stdout + result.stderr).strip()[-300:])
        result = run([tool, "run", "--emulate=gfx1100", "--", out], env=env)
        check(result.returncode == 0 and result.stdout.startswith("PASS"),
              "the converted example on the emulator: " + (result.stdout + result.stderr).strip()[-300:])

        # A program whose driver is a link to the installed runtime's (as a converted package
        # may have it) loads a PTX file nobody converted: the driver finds the installed tool
        # beside its own directory, with none in PATH, and translates it.
        module_dir = os.path.join(source, "tests", "module_files")
        loader, ptx = os.path.join(work, "module_only"), os.path.join(work, "kernels.ptx")
        result = run([nvcc, "-o", loader, os.path.join(module_dir, "module_only.c"), "-lcuda"])
        check(result.returncode == 0, "nvcc builds module_only.c " + result.stderr[-300:])
        result = run([nvcc, "-ptx", "-o", ptx, os.path.join(module_dir, "kernels.cu")])
        check(result.returncode == 0, "nvcc -ptx kernels.cu " + result.stderr[-300:])
        os.makedirs(os.path.join(work, "linked"))
        converted = os.path.join(work, "linked", "module_only")
        result = run([tool, loader, "-o", converted, "--offload-arch=host", "-q"])
        check(result.returncode == 0, "the installed tool converts module_only " + result.stderr[-300:])
        placed_driver = os.path.join(work, "linked", "libcuda.so.1")
        os.unlink(placed_driver)
        os.symlink(os.path.join(runtime, "libcuda.so.1"), placed_driver)
        path = ":".join(d for d in env.get("PATH", "").split(":") if d and
                        not os.path.exists(os.path.join(d, "zluda-convert")))
        result = run([converted, ptx], env=dict(env, ZLUDA_CONVERT_DRIVER="host", PATH=path,
                                                ZLUDA_CONVERT_CACHE_DIR=os.path.join(work, "cache")))
        check(result.returncode == 0 and result.stdout.startswith("PASS"),
              "a PTX file translated at run time by the installed tool: "
              + (result.stdout + result.stderr).strip()[-300:])
        check(any(name.endswith("-host.ptx") for name in os.listdir(os.path.join(work, "cache")))
              if os.path.isdir(os.path.join(work, "cache")) else False,
              "the translation is in the cache")

        os.unlink(os.path.join(runtime, "libzc-emu-hip.so"))
        result = run([tool, "run", "--", out], env=env)
        check((result.returncode, result.stderr) ==
              (1, "zluda-convert: run: cannot find the emulator's HIP runtime libzc-emu-hip.so\n"),
              f"without its runtime directory's libzc-emu-hip.so, the tool finds none: {result.stderr}")

        result = run(["groff", "-man", "-Tutf8", "-ww", "-z", man], env=dict(os.environ, LC_ALL="C.UTF-8"))
        check(result.returncode == 0 and not result.stderr, "the man page renders without warnings "
              + result.stderr.strip()[:300])
        with open(man) as f:
            page = re.sub(r"\\f[BIRP]|\\c", "", f.read()).replace("\\-", "-")
        helps = run([tool, "--help"]).stdout
        for option in sorted(help_options(helps)):
            check(option in page, f"the man page names {option}")
        with open(os.path.join(source, "docs", "user-guide.md")) as f:
            variables = set(re.findall(r"^\| `((?:ZLUDA_CONVERT|ZC_EMU)_[A-Z_]+)", f.read(), re.M))
        check(len(variables) > 10, f"the user guide lists the environment ({len(variables)} variables)")
        for variable in sorted(variables):
            check(variable in page, f"the man page names {variable}")

        convert_help = run([tool, "convert", "--help"]).stdout
        script = f'source "{completion}"; COMP_WORDS=(zluda-convert app -); COMP_CWORD=2; ' \
                 '_zluda_convert; printf "%s\\n" "${COMPREPLY[@]}"'
        offered = set(run(["bash", "-c", script]).stdout.split())
        for option in sorted(help_options(convert_help) - {"-G", "-lineinfo"}):
            check(option in offered, f"completion offers {option}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summary("check_install")


if __name__ == "__main__":
    sys.exit(main())
