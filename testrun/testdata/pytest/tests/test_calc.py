import pytest


def add(a, b):
    return a + b


def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert add(5, 3) == 2, "subtraction is broken"


@pytest.mark.skip(reason="not ready yet")
def test_skipped():
    assert False


class TestStrings:
    def test_upper(self):
        assert "a".upper() == "A"

    def test_lower(self):
        raise ValueError("lower exploded")
