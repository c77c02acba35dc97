//! Integration tests: one binary (see Cargo.toml, `autotests = false`).
