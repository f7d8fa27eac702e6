#!/bin/sh
# make check-layout: the rules of core/README.md, checked on the sources.
#
# Each folder core/NAME/ opens with a README.md holding two lines:
#   Layer: lib | kernel | service | study | cli
#   Uses: the other folders its files may include ("none" for none)
# and every #include "OTHER/file.h" must name a folder of its Uses line.
# Whatever the Uses line says: the helpers (lib) include no other layer,
# the kernel only the kernel and the helpers, a service only those two, a
# study no other study.  Inside a folder the
# files' includes form no circle, and, given the objects of a build, no
# file calls into a file of its folder that calls back into it (a header
# shared by all would hide such a circle from the includes).  Public
# headers (core/include/dlasim) and plugins (plugins/KIND/) include only
# <dlasim/...> and system headers.
#
# Usage: check_layout.sh [ROOT [OBJDIR]], OBJDIR holding core/NAME/*.o
# (build/obj); prints one line per violation and exits 1 if there is any.
root=${1:-.}
objdir=${2:-}
case $objdir in ""|/*) ;; *) objdir=$PWD/$objdir ;; esac
cd "$root" || exit 2
bad=0
say() { echo "layout: $*"; bad=1; }

field() {	# field FOLDER KEY: the value of "KEY:" in FOLDER/README.md
	sed -n "s/^$2:[ 	]*//p" "$1/README.md" 2>/dev/null | head -n 1
}

for dir in core/*/; do
	dir=${dir%/}
	name=${dir#core/}
	[ "$name" = include ] && continue
	layer=$(field "$dir" Layer)
	uses=$(field "$dir" Uses | tr ',' ' ')
	case $layer in
	lib|kernel|service|study|cli) ;;
	"") say "$dir/README.md: no 'Layer:' line (lib, kernel, service, study or cli)"; continue ;;
	*) say "$dir/README.md: Layer '$layer' is not lib, kernel, service, study or cli"; continue ;;
	esac
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -f "$f" ] || continue
		grep -n '^[ 	]*#[ 	]*include[ 	]*"[^"]*/' "$f" |
		sed 's/^\([0-9]*\):.*"\([^"/]*\)\/[^"]*".*/\1 \2/' |
		while read -r line other; do
			[ "$other" = "$name" ] && continue
			olayer=$(field "core/$other" Layer)
			case " $uses " in
			*" $other "*) ;;
			*) echo "layout: $f:$line: includes core/$other, which $dir/README.md does not list under Uses" ;;
			esac
			case $layer:$olayer in
			lib:lib|kernel:lib|kernel:kernel|service:lib|service:kernel) ;;
			study:lib|study:kernel|study:service|cli:*) ;;
			lib:*) echo "layout: $f:$line: helper $name includes core/$other ($olayer); the helpers use nothing above them" ;;
			kernel:*) echo "layout: $f:$line: the kernel includes core/$other ($olayer)" ;;
			service:*) echo "layout: $f:$line: service $name includes core/$other ($olayer); a service uses only the kernel and the helpers" ;;
			study:study) echo "layout: $f:$line: study $name includes study $other; studies share only what is below them" ;;
			study:*) echo "layout: $f:$line: study $name includes core/$other ($olayer)" ;;
			esac
		done
	done
done > "${TMPDIR:-/tmp}/layout.$$"
[ -s "${TMPDIR:-/tmp}/layout.$$" ] && { cat "${TMPDIR:-/tmp}/layout.$$"; bad=1; }
rm -f "${TMPDIR:-/tmp}/layout.$$"

# circle FOLDER EDGES WHAT: report the modules on a circle of "from to"
# lines.  Repeatedly drop modules that point to no remaining module or
# that no remaining module points to; what cannot be dropped is on a
# circle.
circle() {
	left=$(echo "$2" | awk 'NF == 2 && $1 != $2 {
		out[$1] = out[$1] " " $2; in_[$2] = in_[$2] " " $1; node[$1]; node[$2] }
	function live(list,   k, t, i) {
		k = split(list, t, " ")
		for (i = 1; i <= k; i++) if (t[i] in node) return 1
		return 0
	}
	END {
		do {
			changed = 0
			for (n in node)
				if (!live(out[n]) || !live(in_[n])) { delete node[n]; changed = 1 }
		} while (changed)
		for (n in node) printf "%s ", n
	}')
	[ -n "$left" ] && say "$1: $3: $left"
}

# Includes between the files of one folder: module A -> B when A.c or A.h
# includes B.h.
for dir in core/*/; do
	dir=${dir%/}
	edges=$(for f in "$dir"/*.c "$dir"/*.h; do
		[ -f "$f" ] || continue
		m=$(basename "$f"); m=${m%.*}
		sed -n 's/^[ 	]*#[ 	]*include[ 	]*"\([^"/]*\)\.h".*/\1/p' "$f" |
		while read -r h; do
			[ -f "$dir/$h.h" ] && echo "$m $h"
		done
	done | sort -u)
	circle "$dir" "$edges" "files include each other in a circle"
done

# Calls between the files of one folder, from the symbols of its objects.
if [ -n "$objdir" ]; then
	for dir in core/*/; do
		dir=${dir%/}
		set -- "$objdir/$dir"/*.o
		[ -f "$1" ] || continue
		edges=$(for o in "$@"; do
			m=$(basename "$o" .o)
			nm --defined-only "$o" | awk -v m="$m" '$2 ~ /^[TDBRV]$/ { print "D", $3, m }'
			nm --undefined-only "$o" | awk -v m="$m" '{ print "U", $NF, m }'
		done | awk '$1 == "D" { def[$2] = $3; next }
			    { use[++n] = $3 " " $2 }
			    END { for (i = 1; i <= n; i++) { split(use[i], u, " ")
				  if (u[2] in def) print u[1], def[u[2]] } }' | sort -u)
		circle "$dir" "$edges" "files call each other in a circle"
	done
fi

# Public headers and plugins see only the ABI.
for f in core/include/dlasim/*.h plugins/*/*.c; do
	[ -f "$f" ] || continue
	grep -n '^[ 	]*#[ 	]*include[ 	]*"' "$f" | while IFS=: read -r line text; do
		echo "layout: $f:$line: $text (public headers and plugins include only <dlasim/...> and system headers)"
	done
done > "${TMPDIR:-/tmp}/layout.$$"
[ -s "${TMPDIR:-/tmp}/layout.$$" ] && { cat "${TMPDIR:-/tmp}/layout.$$"; bad=1; }
rm -f "${TMPDIR:-/tmp}/layout.$$"

[ $bad -eq 0 ] && echo "layout: ok"
exit $bad
