;;; calc-test.el --- tests for calc.el -*- lexical-binding: t -*-

;;; Code:

(require 'ert)
(require 'calc)

(ert-deftest calc-add-test ()
  (should (= (calc-add 2 3) 5)))

(ert-deftest calc-sub-test ()
  (should (= (calc-sub 5 3) 2)))

(ert-deftest calc-skipped-test ()
  (skip-unless nil)
  (should nil))

(ert-deftest calc-upper-test ()
  (should (equal (upcase "a") "A")))

(ert-deftest calc-lower-test ()
  (error "Lower exploded"))

;;; calc-test.el ends here
