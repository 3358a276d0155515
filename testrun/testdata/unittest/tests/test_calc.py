import unittest


def add(a, b):
    return a + b


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)

    def test_sub(self):
        self.assertEqual(add(5, -3), 8, "Sub(5, 3)")

    @unittest.skip("not yet")
    def test_mul(self):
        pass

    def test_div(self):
        raise ZeroDivisionError("boom")

    def test_upper(self):
        self.assertEqual("a".upper(), "A")
