//! The benchmarks (`signing.rs`, `explain.rs`, `instructions.rs`) and their workloads
//! (`common/`); this library is empty.
