//! Printable HK score cards (placeholder: being written).
