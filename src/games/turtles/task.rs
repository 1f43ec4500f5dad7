//! What one turtles task computes: every row of one length.

/// Every row of one length.
#[derive(Debug, Clone, PartialEq)]
pub struct LengthTask(pub u32);
