;;; calc.el --- a test fixture for jido's run_tests -*- lexical-binding: t -*-

;;; Code:

(defun calc-add (a b)
  "Return A plus B."
  (+ a b))

(defun calc-sub (a b)
  "Return A minus B, deliberately wrong."
  (+ a b))

(provide 'calc)
;;; calc.el ends here
