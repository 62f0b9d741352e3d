#!/usr/bin/env bash
# Builds (release) and runs the GRDB / SQLiteNIO comparison; see Package.swift. Arguments pass
# through: seconds per row (default 10), writers (default 8).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -e /usr/include/sqlite3.h ]; then apt-get install -y libsqlite3-dev >/dev/null; fi  # GRDB uses the system's SQLite
swift build -c release 2>&1 | tail -1
exec .build/release/SQLiteLibraries "$@"
