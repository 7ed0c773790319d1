#!/usr/bin/env bash
# The wasm32 linker: rust-lld, minus the exports of wasm-streams' JS stream
# classes (IntoUnderlyingSource, -Sink, -ByteSource). Leptos always builds
# server_fn with its "browser" feature, which pulls those #[wasm_bindgen]
# classes in; exported, the linker must keep them and everything they reach
# (futures, JSPI glue), though a CSR page never streams: 7.9 KB gzip of the
# page (issue 10, docs/performance.md). wasm-bindgen (0.2.130, pinned) still
# writes their JS class shells, which nothing constructs; a wasm-bindgen that
# insisted on the missing exports would fail the build here, not the page.
set -euo pipefail
args=()
while (($#)); do
    if [[ $1 == --export && ${2-} == *intounderlying* ]]; then
        shift 2
        continue
    fi
    args+=("$1")
    shift
done
exec rust-lld "${args[@]}"
