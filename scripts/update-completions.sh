#!/usr/bin/env bash
# Regenerates completions/ from the built CLI (run `npm run build` first); a test keeps them in sync.
set -euo pipefail
cd "$(dirname "$0")/.."
node bin/tubekit.js completion bash > completions/tubekit.bash
node bin/tubekit.js completion zsh > completions/_tubekit
node bin/tubekit.js completion fish > completions/tubekit.fish
