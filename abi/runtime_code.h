/* Code a program makes while it runs, shipped beside it (zluda-convert record): between the
 * tool, which writes it, and the runtime stub, which loads from it before it would translate.
 * A folder of this name beside the program's executable holds, for each piece of code the
 * program made, a converted module file of it named by the XXH3-64 of the code (a PTX text
 * without its NUL, or a fatbin) as 16 lowercase hex digits, with ".ptx" or ".fatbin". While
 * ZLUDA_CONVERT_RECORD names a folder, the stub writes there each piece of code it is handed
 * that no image holds, named the same way, as it was handed. */
#ifndef ZC_RUNTIME_CODE_H
#define ZC_RUNTIME_CODE_H

#define ZC_RUNTIME_CODE_DIR "zluda-convert-runtime-code"
#define ZC_RECORD_VARIABLE "ZLUDA_CONVERT_RECORD"

#endif
