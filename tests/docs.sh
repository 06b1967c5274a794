#!/usr/bin/env bash
# tests/docs.sh: the documents' links. In every Markdown file of the repository (README.md,
# docs/ with docs/history/, the folders' READMEs), each link to a file of the repository names
# one that exists, and each anchor (#...) a heading of its page, as GitHub makes them: the
# heading in lower case, without what is not a letter, digit, space, - or _, its spaces made
# -, a second heading of the same text -1, a third -2. Links to the web (http:, https:,
# mailto:) are not followed; text in code blocks and code spans is not a link. And the README
# stays a newcomer's page: at most README_LINES lines (docs/style.md, "Documents").
# Usage: tests/docs.sh [ENGINE] (the engine is not used). Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
README_LINES=150
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# anchors FILE: the anchors of FILE's headings, one a line (outside fenced code blocks).
anchors() {
  awk '
    /^```/ { fenced = !fenced; next }
    fenced || !/^#+ / { next }
    {
      text = tolower($0); sub(/^#+ +/, "", text); sub(/ +#* *$/, "", text)
      gsub(/[^a-z0-9 _-]/, "", text); gsub(/ /, "-", text)
      print seen[text]++ ? text "-" (seen[text] - 1) : text
    }' "$1"
}

# links FILE: FILE's links, "LINE TARGET" a line: [text](target) outside code blocks and code
# spans (the target up to a space or its closing parenthesis).
links() {
  awk '
    /^```/ { fenced = !fenced; next }
    fenced || /^    / { next }
    {
      line = $0; gsub(/`[^`]*`/, "", line)
      while (match(line, /\]\([^) ]+[) ]/)) {
        print FNR, substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, RSTART + RLENGTH)
      }
    }' "$1"
}

mapfile -t files < <(find . -name '*.md' -not -path './tests/web/node_modules/*' -not -path './node_modules/*' \
  -not -path './.git/*' | sed 's|^\./||' | sort)
checked=0
for file in "${files[@]}"; do
  dir=$(dirname "$file")
  while read -r line target; do
    case $target in http:*|https:*|mailto:*) continue ;; esac
    path=${target%%#*}; anchor=''
    [[ $target == *'#'* ]] && anchor=${target#*#}
    if [ -z "$path" ]; then resolved=$file; else resolved=$(realpath -m --relative-to=. "$dir/$path"); fi
    checked=$((checked + 1))
    if [ ! -e "$resolved" ]; then
      bad "$file:$line: the link '$target' names $resolved, which does not exist"
    elif [ -n "$anchor" ] && ! anchors "$resolved" | grep -qxF -- "$anchor"; then
      bad "$file:$line: the link '$target': no heading of $resolved has the anchor #$anchor"
    else
      ok
    fi
  done < <(links "$file")
done
echo "docs: ${#files[@]} Markdown files, $checked links to the repository"
[ "$checked" -ge 100 ] && ok || bad "only $checked links found: the reader of links is broken"
lines=$(wc -l <README.md)
if [ "$lines" -le $README_LINES ]; then ok; else bad "README.md has $lines lines, more than $README_LINES"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
