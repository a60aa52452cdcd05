#!/usr/bin/env bash
# Runs the README's main-job command exactly as written there and checks that stdout is a success envelope
# holding today's agenda. Keeps the README's first command true.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=$(awk '/^# the main job/{getline; print; exit}' README.md)
[[ -n "$cmd" ]] || { echo "README has no main-job command" >&2; exit 1; }
echo "\$ $cmd"
out=$(bash -c "$cmd")
printf '%s\n' "$out" | deno eval '
  const env = JSON.parse(await new Response(Deno.stdin.readable).text());
  if (env.ok !== true || !Array.isArray(env.data) || env.meta?.count !== env.data.length || env.data.length === 0) {
    console.error("main job output is not a non-empty agenda envelope:", JSON.stringify(env).slice(0, 300));
    Deno.exit(1);
  }
  console.log(`main job ok: ${env.data.length} agenda items as ${env.identity}`);
'
