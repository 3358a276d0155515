#[test]
fn api_adds() {
    assert_eq!(jido_fixture::add(1, 1), 2);
}
