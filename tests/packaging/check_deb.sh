#!/bin/sh
# The Debian packages, as a maintainer builds them: dpkg-buildpackage -b on a copy of the
# source tree (its tracked files as they are now), lintian without an error, then the
# packages installed (as root, with apt: the machine's own packages satisfy their
# dependencies; they are removed again unless they were installed before) or, as another
# user, unpacked into a scratch root; with the build tree gone, the installed tool converts
# the bundled example, which passes on the CPU driver and, through `run`, on the emulator, and
# again with its libcuda.so.1 a link to the runtime package's (doctor taking it for ours);
# the man page is found.
# Usage: check_deb.sh SOURCE_DIR NVCC
set -e
source=$(cd "$1" && pwd)
nvcc=$2
work=$(mktemp -d /tmp/zc-deb-XXXXXX)
installed_here=
cleanup() {
	if [ -n "$installed_here" ]; then
		apt-get remove -y -q zluda-convert zluda-convert-runtime >/dev/null 2>&1 || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL $*"; echo "check_deb: failed"; exit 1; }

mkdir "$work/src"
# the tracked files of a git checkout, else the tree without its build folders
if commit=$(git -C "$source" rev-parse --short=12 HEAD 2>/dev/null); then
	(cd "$source" && git ls-files -z | xargs -0 cp -P --parents -t "$work/src") ||
		fail "copying the source tree"
	# the copy is no git checkout: the commit --version names comes from the source's
	[ -z "$(git -C "$source" status --porcelain --untracked-files=no)" ] || commit=$commit-dirty
else
	commit=unknown
	tar -C "$source" --exclude='./build*' --exclude='./obj-*' --exclude='./.git' -cf - . |
		tar -C "$work/src" -xf - || fail "copying the source tree"
fi
cd "$work/src"
ZC_COMMIT=$([ "$commit" = unknown ] || echo "$commit") DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc >"$work/build.log" 2>&1 ||
	{ tail -30 "$work/build.log"; fail "dpkg-buildpackage -b"; }
echo "ok dpkg-buildpackage -b"
tool_deb=$(ls "$work"/zluda-convert_*_amd64.deb)
runtime_deb=$(ls "$work"/zluda-convert-runtime_*_amd64.deb)
lintian --tag-display-limit 0 "$tool_deb" "$runtime_deb" >"$work/lintian.log" 2>&1 || true
if grep -q '^E: ' "$work/lintian.log"; then
	grep '^E: ' "$work/lintian.log"
	fail "lintian reports errors"
fi
echo "ok lintian: no errors ($(grep -c '^W: ' "$work/lintian.log" || true) warnings)"
cd "$work"
rm -rf "$work/src" # the packages work with the tree they were built in gone

if [ "$(id -u)" = 0 ] && ! dpkg -s zluda-convert >/dev/null 2>&1; then
	installed_here=yes
	apt-get install -y -q "$tool_deb" "$runtime_deb" >"$work/install.log" 2>&1 ||
		{ tail -20 "$work/install.log"; fail "apt-get install of the packages"; }
	tool=/usr/bin/zluda-convert
	runtime=$(dirname "$(dpkg -L zluda-convert-runtime | grep '/libcuda.so.1$')")
	man -w zluda-convert >/dev/null || fail "man finds no zluda-convert(1)"
	echo "ok the packages install; man finds zluda-convert(1)"
else
	mkdir "$work/root"
	dpkg-deb -x "$tool_deb" "$work/root"
	dpkg-deb -x "$runtime_deb" "$work/root"
	tool=$work/root/usr/bin/zluda-convert
	runtime=$(dirname "$(find "$work/root" -name libcuda.so.1)")
	[ -f "$work/root/usr/share/man/man1/zluda-convert.1.gz" ] || fail "no man page in the package"
	echo "ok the packages unpack"
fi

version=$("$tool" --version)
case $version in
"zluda-convert "*" (commit $commit, LLVM "*) echo "ok --version: $version" ;;
*) fail "--version: $version (commit $commit expected)" ;;
esac
"$nvcc" -arch=sm_80 -o "$work/vector_add" "$source/examples/vector_add.cu" || fail "nvcc"
mkdir "$work/out"
"$tool" "$work/vector_add" -o "$work/out/vector_add" --offload-arch=gfx1100,host -q ||
	fail "the packaged tool converts the example"
unset ZLUDA_CONVERT_DRIVER ZLUDA_CONVERT_HIP_PATH ZC_EMU_PROCESSOR
out=$(ZLUDA_CONVERT_DRIVER=host "$work/out/vector_add") || fail "the example on the CPU driver: $out"
case $out in PASS*) echo "ok the example on the CPU driver: $out" ;; *) fail "the example: $out" ;; esac
out=$("$tool" run --emulate=gfx1100 -- "$work/out/vector_add") || fail "the example on the emulator: $out"
case $out in PASS*) echo "ok the example on the emulator: $out" ;; *) fail "the example: $out" ;; esac
# a converted package may share the runtime package's driver instead of its own copy
ln -sf "$runtime/libcuda.so.1" "$work/out/libcuda.so.1"
out=$(ZLUDA_CONVERT_DRIVER=host "$work/out/vector_add") || fail "the example with the shared driver: $out"
case $out in PASS*) echo "ok the example with a link to the runtime package's driver: $out" ;;
*) fail "the example with the shared driver: $out" ;; esac
doctor=$("$tool" doctor "$work/out/vector_add" 2>&1 || true)
case $doctor in *"not zluda-convert's"*) fail "doctor takes the shared driver for another: $doctor" ;; esac
echo "ok doctor takes the link for zluda-convert's driver"
echo "check_deb: passed"
