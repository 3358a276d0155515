//! A test fixture for jido's run_tests.

pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// Deliberately wrong so that a test fails.
pub fn sub(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 3), 5);
    }

    #[test]
    fn subtracts() {
        assert_eq!(sub(5, 3), 2, "subtraction is broken");
    }

    #[test]
    #[ignore = "not ready yet"]
    fn skipped() {
        assert!(false);
    }

    #[test]
    fn explodes() {
        panic!("lower exploded");
    }
}
