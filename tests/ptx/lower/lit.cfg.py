# lit configuration of the PTX lowering's golden tests: each .ptx file is lowered by
# ptx-lower and its LLVM IR checked with FileCheck (some also optimised by zc-codegen).
import os

import lit.formats

config.name = "ptx-lower"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ptx"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(lit_config.params["build_dir"], "lit")
config.substitutions.append(("%ptx-lower", lit_config.params["ptx_lower"]))
config.substitutions.append(("%zc-codegen", lit_config.params["zc_codegen"]))
config.environment["PATH"] = os.pathsep.join([lit_config.params["llvm_bin"], config.environment.get("PATH", "")])
