//! Measured data lives in `tests/`; see the integration tests.
