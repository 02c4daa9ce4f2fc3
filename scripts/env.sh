# Sourced by the scripts: puts the toolchains the project uses on PATH.
if [[ -d "$HOME/.cargo/bin" ]]; then export PATH="$HOME/.cargo/bin:$PATH"; fi
