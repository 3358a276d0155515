//! Does not compile: the build-failure fixture for jido's run_tests.

pub fn answer() -> i32 {
    "forty-two"
}

#[cfg(test)]
mod tests {
    #[test]
    fn answers() {
        assert_eq!(super::answer(), 42);
    }
}
