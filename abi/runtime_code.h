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

/* Several PTX texts a program links at run time (cuLink), handed over as one PTX text that
 * the tool links as nvlink would: this first line, then each text after a line of its own
 * ZC_LINK_INPUT. The module it makes is keyed by that whole text. */
#define ZC_LINK_HEADER "// zluda-convert: PTX texts linked at run time\n"
#define ZC_LINK_INPUT "//.zluda-convert-link-input\n"

#endif
