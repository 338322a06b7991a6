"""CLI cases: arguments, and the exact exit code, stdout and stderr each must give.
In expectations, {fatbin} is a synthetic bare fatbin (synth.py), {ptx} its PTX as a file,
{elf} a Linux program (zluda-convert itself), {tmp} a scratch folder and {build} what
--version says the tool was built from: the commit of this checkout and LLVM's version."""

TRY = "Try 'zluda-convert --help' for more information.\n"

INSPECT_SAMPLE = """{fatbin}: bare fatbin file, 1 fatbin, 0 wrappers
fatbin 0: offset 0x0, 488 bytes, 3 entries; not registered by a wrapper
  entry 0: cubin sm_80, 64 bytes
  entry 1: ptx sm_80, PTX 8.5, 176 bytes, from kernels.cu, options "-O3 "
    kernels (2): first_kernel second_kernel
  entry 2: unknown sm_90 (kind 0x40, skipped), 8 bytes
total: 1 fatbin (0 registered), 3 entries, 1 PTX, 2 kernels in PTX
"""


def _left_out(i, verbose=False):
    line = 11 + 8 * i + (4 if i >= 6 else 0)  # the kept kernel's 4 lines sit after the sixth
    return ("{ptx_left_out}: PTX file: warning: kernel multicast_%02d left out for host: the PTX "
            "file, line %d:2: not supported yet: multimem.red.relaxed.sys.global.add.u32 in "
            "kernel multicast_%02d\n" % (i, line, i))


LEFT_OUT = ("".join(_left_out(i) for i in range(10))
            + "{ptx_left_out}: PTX file: 1 of 13 kernels translated for 1 of 1 targets, the "
            "others left out\n"
            "{ptx_left_out}: 2 more kernels left out (-v lists them all, --report writes them)\n")

INSPECT_HELP = """Usage: zluda-convert inspect FILE [--json]

inspect FILE [--json]      list every fatbin: where it is, whether a wrapper registers it,
                           its entries (PTX, cubin, LTO-IR), archs, PTX ISA versions,
                           compression, sizes, options, the kernels each PTX declares, and
                           the AOT image of a converted binary. --json prints one JSON
                           document on stdout and nothing else.

Options (anywhere on the command line; with run and record, before PROGRAM):
  -v, --verbose            say more (notes about skipped data, files written); repeatable
  -q, --quiet              say less: only errors
  -h, --help               show this help (with a command: that command's)
  -V, --version            show the version

Exit status: 0 success, 1 bad input or failed translation (the message names the file
and what is wrong), 2 bad usage; run: the program's, or 127 when it cannot be found
(126 when it cannot be executed).
"""

VALID_TARGETS = ("gfx1030, gfx1100, gfx1200, gfx1031, gfx1032, gfx1033, gfx1034, gfx1035, "
                 "gfx1036, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153, "
                 "gfx1201, gfx10-3-generic, gfx11-generic, gfx12-generic, host, x86_64-windows\n")

CORRUPT = ("{fatbin_corrupt}: fatbin 0: warning: not translated: fatbin 0 entry 0 cannot be "
           "decoded: corrupt LZ4 data: the block does not decode into the 4096 bytes the entry "
           "header claims\n{tmp}/out: 0 modules, 0 kernels, 1 target, 1 failure\n")

CASES = {
    "no_arguments": ([], 2, "", "zluda-convert: no command given\n" + TRY),
    "version": (["--version"], 0, "zluda-convert 0.1.0 ({build})\n", ""),
    "version_short_anywhere": (["inspect", "-V"], 0, "zluda-convert 0.1.0 ({build})\n", ""),
    "unknown_option": (["--frobnicate"], 2, "", "zluda-convert: convert: unknown option '--frobnicate'\n" + TRY),
    "inspect_no_file": (["inspect"], 2, "", "zluda-convert: inspect: no input file\n" + TRY),
    "inspect_two_files": (["inspect", "a", "b"], 2, "",
                          "zluda-convert: inspect: one input file expected, got 'a' and 'b'\n" + TRY),
    "inspect_bad_option": (["inspect", "--jsn", "{fatbin}"], 2, "",
                           "zluda-convert: inspect: unknown option '--jsn'\n" + TRY),
    "extract_no_output": (["extract", "{fatbin}"], 2, "",
                          "zluda-convert: extract: no output directory (use -o DIR)\n" + TRY),
    "extract_o_without_dir": (["extract", "{fatbin}", "-o"], 2, "",
                              "zluda-convert: extract: -o needs a directory\n" + TRY),
    # module files (cuModuleLoad): see run_case.check_module_file for what the output holds
    "convert_module_file_fatbin": (["-q", "{fatbin}", "-o", "{tmp}/out", "--offload-arch=host"],
                                   0, "", ""),
    "convert_module_file_ptx": (["-q", "{ptx}", "-o", "{tmp}/out", "--offload-arch=host"],
                                0, "", ""),
    # Windows' host code: in a module file when asked for, never in a Linux program
    "convert_windows_host_module_file": (
        ["{ptx}", "-o", "{tmp}/out", "--offload-arch=x86_64-windows"], 0, "",
        "{ptx}: PTX file: 2 kernels translated for 1 of 1 targets\n"
        "{tmp}/out: 1 module, 2 kernels, 1 target, 0 failures\n"),
    "convert_windows_host_for_elf": (
        ["{elf}", "-o", "{tmp}/out", "--offload-arch=gfx1100,x86_64-windows"], 2, "",
        "zluda-convert: convert: {elf} is a Linux program (ELF): its CPU code is "
        "--offload-arch=host; x86_64-windows is for Windows programs and module files they "
        "load\n" + TRY),
    # --with-libraries follows ELF programs only, and a pattern list may not be empty
    "convert_with_libraries_module_file": (
        ["{ptx}", "-o", "{tmp}/out", "--offload-arch=host", "--with-libraries"], 0, "",
        "{ptx}: PTX file: 2 kernels translated for 1 of 1 targets\n"
        "{tmp}/out: 1 module, 2 kernels, 1 target, 0 failures\n"
        "zluda-convert: {ptx}: warning: --with-libraries follows the libraries of Linux ELF "
        "programs and libraries only; none converted\n"),
    "convert_with_libraries_empty": (["{ptx}", "-o", "{tmp}/out", "--with-libraries="], 2, "",
                                     "zluda-convert: convert: --with-libraries= needs library "
                                     "names or patterns\n" + TRY),
    # per-kernel translation: only the kernels that need what is not translated are left out
    "convert_left_out": (["{ptx_left_out}", "-o", "{tmp}/out", "--offload-arch=host"], 0, "",
                         LEFT_OUT + "{tmp}/out: 1 module, 13 kernels, 1 target, 12 failures\n"),
    "convert_left_out_strict": (["{ptx_left_out}", "-o", "{tmp}/out", "--offload-arch=host",
                                 "--strict"], 1, "",
                                LEFT_OUT + "{tmp}/out: 1 module, 13 kernels, 1 target, 12 failures\n"
                                "zluda-convert: {ptx_left_out}: 12 translation failures and "
                                "--strict: no output written\n"),
    # an error LLVM gives for one kernel's code leaves that kernel out, not the converter
    "convert_codegen_error": (["{ptx_too_much_stack}", "-o", "{tmp}/out", "--offload-arch=gfx1100"],
                              0, "",
                              "{ptx_too_much_stack}: PTX file: warning: kernel huge_stack left out "
                              "for gfx1100: code generation failed: stack frame size (4000000004) "
                              "exceeds limit (262136) in function 'huge_stack'\n"
                              "{ptx_too_much_stack}: PTX file: 1 of 2 kernels translated for 1 of "
                              "1 targets, the others left out\n"
                              "{tmp}/out: 1 module, 2 kernels, 1 target, 1 failure\n"),
    "inspect_ptx_file": (["inspect", "{ptx}"], 0,
                         "{ptx}: PTX file, 171 bytes\n  kernels (2): first_kernel second_kernel\n"
                         "total: 0 fatbins (0 registered), 0 entries, 1 PTX, 2 kernels in PTX\n", ""),
    "convert_no_output": (["convert", "{fatbin}"], 2, "",
                          "zluda-convert: convert: no output file (use -o OUT)\n" + TRY),
    "convert_output_is_input": (["{fatbin}", "-o", "{fatbin}"], 2, "",
                                "zluda-convert: convert: the output {fatbin} is the input; "
                                "converting never modifies its input\n" + TRY),
    "convert_unknown_arch": (["{fatbin}", "-o", "{tmp}/o", "--offload-arch=gfx900"], 2, "",
                             "zluda-convert: convert: unknown --offload-arch 'gfx900'; valid: "
                             "gfx1030, gfx1100, gfx1200, gfx1031, gfx1032, gfx1033, gfx1034, "
                             "gfx1035, gfx1036, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, "
                             "gfx1152, gfx1153, gfx1201, gfx10-3-generic, gfx11-generic, "
                             "gfx12-generic, host, x86_64-windows\n" + TRY),
    "convert_bad_dump": (["{fatbin}", "-o", "{tmp}/o", "--dump=obj"], 2, "",
                         "zluda-convert: convert: --dump takes ptx, ll, ll-opt or asm, not 'obj'\n" + TRY),
    "convert_bad_jobs": (["{fatbin}", "-o", "{tmp}/o", "-j", "0"], 2, "",
                         "zluda-convert: convert: -j needs a number of jobs from 1 to 1024, "
                         "not '0'\n" + TRY),
    "convert_missing_directory": (["{fatbin}", "-o", "{tmp}/no/such/out"], 1, "",
                                  "zluda-convert: {tmp}/no/such/out: cannot write into its "
                                  "directory: No such file or directory\n"),
    "missing_file": (["inspect", "{tmp}/missing"], 1, "",
                     "zluda-convert: {tmp}/missing: cannot open: No such file or directory\n"),
    "directory": (["inspect", "{tmp}"], 1, "", "zluda-convert: {tmp}: is a directory\n"),
    "inspect_sample": (["inspect", "{fatbin}"], 0, INSPECT_SAMPLE, ""),
    "file_first_means_convert": (["{fatbin}", "inspect"], 2, "",
                                 "zluda-convert: convert: one input file expected, got "
                                 "'{fatbin}' and 'inspect'\n" + TRY),
    "inspect_verbose_notes": (["-v", "inspect", "{fatbin}"], 0, INSPECT_SAMPLE,
                              "{fatbin}: note: fatbin 0 entry 2: unknown entry kind 0x40 skipped\n"),
    "inspect_quiet": (["inspect", "-q", "{fatbin}"], 0, INSPECT_SAMPLE, ""),
    "extract_sample": (["extract", "-o", "{tmp}/x", "{fatbin}"], 0, "",
                       "{fatbin}: extracted 1 fatbin to {tmp}/x\n"),
    "extract_sample_quiet": (["extract", "-q", "--output={tmp}/x", "{fatbin}"], 0, "", ""),
    # run: the emulator's processors are the converter's targets that it runs
    "run_unknown_processor": (["run", "--emulate=gfx906", "--", "true"], 2, "",
                              "zluda-convert: run: unknown --emulate processor 'gfx906'; valid: "
                              "gfx1030, gfx1100, gfx1200, gfx1031, gfx1032, gfx1033, gfx1034, "
                              "gfx1035, gfx1036, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, "
                              "gfx1152, gfx1153, gfx1201\n" + TRY),
    "run_missing_program": (["run", "--emulate", "gfx1200", "{tmp}/missing", "-v"], 127, "",
                            "zluda-convert: {tmp}/missing: cannot run: No such file or directory\n"),
    "run_no_program": (["run", "--emulate=gfx1100"], 2, "", "zluda-convert: run: no program given\n" + TRY),
    "doctor_unknown_option": (["doctor", "--jsn"], 2, "",
                              "zluda-convert: doctor: unknown option '--jsn'\n" + TRY),
    "doctor_two_programs": (["doctor", "a", "b"], 2, "", "zluda-convert: doctor: one PROGRAM at most\n" + TRY),
    "doctor_missing_program": (["doctor", "{tmp}/missing"], 1, "",
                               "zluda-convert: {tmp}/missing: cannot open: No such file or directory\n"),
    "run_unknown_option": (["run", "--emulat=gfx1100", "true"], 2, "",
                           "zluda-convert: run: unknown option '--emulat=gfx1100'\n" + TRY),
    "record_no_program": (["record", "--offload-arch=host"], 2, "",
                          "zluda-convert: record: no program given\n" + TRY),
    "record_unknown_option": (["record", "--offload=gfx1100", "true"], 2, "",
                              "zluda-convert: record: unknown option '--offload=gfx1100'\n" + TRY),
    "record_missing_program": (["record", "--", "{tmp}/missing", "-v"], 127, "",
                               "zluda-convert: {tmp}/missing: cannot run: No such file or directory\n"),
    "record_failing_program": (["record", "--", "sh", "-c", "echo out; exit 3"], 1, "out\n",
                               "zluda-convert: record: sh failed (exit status 3): nothing shipped\n"),
    "record_nothing_made": (["record", "--", "sh", "-c", "test -z \"$ZLUDA_CONVERT_RECORD\" || echo recorded"],
                            0, "recorded\n",
                            "zluda-convert: record: sh made no GPU code while it ran: nothing to ship\n"),
    # the environment the program gets (the runtime's path absolute), its own arguments
    # (options included) and its exit status
    "run_environment": (["-q", "run", "--emulate=gfx1030:xnack-", "sh", "-c",
                         'echo "$ZLUDA_CONVERT_DRIVER $ZC_EMU_PROCESSOR '
                         '[${ZLUDA_CONVERT_HIP_PATH%%/*}]${ZLUDA_CONVERT_HIP_PATH##*/} $*"; exit 3',
                         "sh", "-v", "--help", "--"], 3,
                        "hip gfx1030:xnack- []libzc-emu-hip.so -v --help --\n", ""),
    "run_default_processor": (["run", "--", "sh", "-c", 'echo "$ZC_EMU_PROCESSOR"'], 0, "gfx1100\n", ""),
    # a command's --help is that command's
    "inspect_help": (["inspect", "--help"], 0, INSPECT_HELP, ""),
    "help_then_command": (["-h", "inspect"], 0, INSPECT_HELP, ""),
    # an empty target list or name is a mistake, not the default
    "convert_empty_arch": (["{fatbin}", "-o", "{tmp}/o", "--offload-arch="], 2, "",
                           "zluda-convert: convert: --offload-arch= needs one or more targets; "
                           "valid: " + VALID_TARGETS + TRY),
    "convert_cache_dir_empty": (["{fatbin}", "-o", "{tmp}/o", "--cache-dir="], 2, "",
                                "zluda-convert: convert: --cache-dir needs a directory\n" + TRY),
    "convert_cache_dir_and_no_cache": (["{fatbin}", "-o", "{tmp}/o", "--cache-dir={tmp}/c", "--no-cache"], 2, "",
                                       "zluda-convert: convert: --cache-dir and --no-cache contradict "
                                       "each other\n" + TRY),
    "convert_cache_dir_unusable": (["{fatbin}", "-o", "{tmp}/o", "--cache-dir={elf}"], 1, "",
                                   "zluda-convert: {elf}: cannot use it as the cache directory: "
                                   "Not a directory\n"),
    "convert_arch_empty_name": (["{fatbin}", "-o", "{tmp}/o", "--offload-arch=gfx1100,,host"], 2,
                                "", "zluda-convert: convert: --offload-arch 'gfx1100,,host' has an "
                                "empty name; valid: " + VALID_TARGETS + TRY),
    # a program without fatbins gets the driver, and a word that it has no GPU code
    "convert_no_fatbins": (["{elf}", "-o", "{tmp}/out", "--offload-arch=host"], 0, "",
                           "{elf}: warning: no fatbin in it: no GPU code to translate\n"
                           "{tmp}/out: 0 modules, 0 kernels, 1 target, 0 failures\n"),
    # PTX that does not decode is a failure, which --strict refuses
    "convert_corrupt_ptx": (["{fatbin_corrupt}", "-o", "{tmp}/out", "--offload-arch=host"], 0, "",
                            CORRUPT),
    "convert_corrupt_ptx_strict": (["{fatbin_corrupt}", "-o", "{tmp}/out", "--offload-arch=host",
                                    "--strict"], 1, "",
                                   CORRUPT + "zluda-convert: {fatbin_corrupt}: 1 translation "
                                   "failure and --strict: no output written\n"),
    # files written are checked before the work
    "convert_report_missing_directory": (["{fatbin}", "-o", "{tmp}/out", "--report={tmp}/no/r.json"],
                                         1, "", "zluda-convert: {tmp}/no/r.json: cannot write "
                                         "into its directory: No such file or directory\n"),
    # a driver file beside the output that is not ours is never replaced silently
    "convert_driver_not_ours": (["{elf}", "-o", "{tmp}/out", "--offload-arch=host"], 1, "",
                                "zluda-convert: {tmp}/libcuda.so.1: is not zluda-convert's driver; "
                                "not replaced (move it away, or --replace-driver)\n"),
    # doctor checks what the driver would: the driver file beside the program, the variable
    # that chooses a driver, every code object's hash (run_case.check_doctor); its devices
    # are this machine's, so the JSON report is checked rather than the text (and, undamaged,
    # the exit status, which says whether the program runs on a GPU here)
    "doctor_converted_ok": (["doctor", "--json", "{tmp}/conv/prog"], None, None, ""),
    "doctor_converted_driver_missing": (["doctor", "--json", "{tmp}/conv/prog"], 1, None, ""),
    "doctor_converted_driver_cut": (["doctor", "--json", "{tmp}/conv/prog"], 1, None, ""),
    "doctor_converted_bad_variable": (["doctor", "--json", "{tmp}/conv/prog"], 1, None, ""),
    "doctor_converted_tampered": (["doctor", "--json", "{tmp}/conv/prog"], 1, None, ""),
    # a shared library is not a program: run says so instead of crashing
    "run_shared_library": (["run", "--", "{shlib}"], 126, "",
                           "zluda-convert: {shlib}: cannot run: a shared library, not a program; "
                           "run the program that loads it\n"),
    "convert_link_not_ours": (["{elf}", "-o", "{tmp}/out", "--offload-arch=host"], 1, "",
                              "zluda-convert: {tmp}/libcuda.so: is not zluda-convert's link to "
                              "libcuda.so.1; not replaced (move it away, or --replace-driver)\n"),
    "convert_driver_not_ours_replaced": (["-q", "{elf}", "-o", "{tmp}/out", "--offload-arch=host",
                                          "--replace-driver"], 0, "", ""),
}

if __name__ == "__main__":
    print(";".join(CASES))
