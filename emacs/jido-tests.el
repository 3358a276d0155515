;;; jido-tests.el --- ERT tests of jido.el -*- lexical-binding: t; -*-

;;; Commentary:

;; Unit tests of jido.el (buffer ops, rendering, approvals) need no
;; binary.  The end-to-end tests drive the jido binary named by
;; $JIDO_TEST_PROGRAM (emacs/run-tests.sh builds it) against a fake
;; OpenAI-compatible model server written below: it answers each
;; POST /v1/chat/completions with the next step of a script, streamed
;; as server-sent events.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'jido)

;;;; Helpers

(defconst jido-test--timeout 30
  "Seconds any wait of a test lasts at most.")

(defun jido-test--wait (pred &optional what seconds)
  "Process events until PRED returns non-nil; fail after SECONDS saying WHAT."
  (let ((deadline (+ (float-time) (or seconds jido-test--timeout))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall pred)
        (ert-fail (format "timed out waiting for %s" (or what "a condition"))))))

(defun jido-test--make-project (files)
  "Make a temporary project holding FILES, an alist (NAME . TEXT); return its root."
  (let ((root (file-name-as-directory (make-temp-file "jido-test-" t))))
    (dolist (f files)
      (let ((path (expand-file-name (car f) root)))
        (make-directory (file-name-directory path) t)
        (with-temp-file path (insert (cdr f)))))
    root))

(defun jido-test--file (root name)
  "Return the text of file NAME in ROOT, or nil when it does not exist."
  (let ((path (expand-file-name name root)))
    (and (file-exists-p path)
         (with-temp-buffer (insert-file-contents path) (buffer-string)))))

(defun jido-test--kill-chat-buffers ()
  "Kill every jido chat buffer."
  (dolist (b (buffer-list))
    (when (with-current-buffer b (derived-mode-p 'jido-chat-mode))
      (kill-buffer b))))

;;;; Unit tests: buffers lent to jido

(defmacro jido-test--with-root (&rest body)
  "Run BODY with `root' bound to a fresh temporary directory."
  (declare (indent 0) (debug t))
  `(let ((root (jido-test--make-project nil)))
     (unwind-protect (progn ,@body)
       (delete-directory root t))))

(ert-deftest jido-buffer-list-leaves-out-internal-buffers ()
  (jido-test--with-root
    (let ((a (get-buffer-create "jt-visible"))
          (b (get-buffer-create " jt-hidden"))
          (c (get-buffer-create "*jt-star*"))
          (d (find-file-noselect (expand-file-name "src/f.txt" root)))
          (outside (find-file-noselect (make-temp-file "jido-outside"))))
      (unwind-protect
          (progn
            (with-current-buffer a (insert "héllo"))
            (let* ((list (plist-get (jido--buffer-op root '(:op "list")) :buffers))
                   (names (mapcar (lambda (e) (plist-get e :name)) list))
                   (entry (cl-find "jt-visible" list :key (lambda (e) (plist-get e :name))
                                   :test #'equal))
                   (file (cl-find (buffer-name d) list :key (lambda (e) (plist-get e :name))
                                  :test #'equal)))
              (should (vectorp list))
              (should (member "jt-visible" names))
              (should-not (member " jt-hidden" names))
              (should-not (member "*jt-star*" names))
              (should-not (member (buffer-name outside) names))
              (should (equal (plist-get entry :size) 6))
              (should (eq (plist-get entry :modified) t))
              (should (equal (plist-get entry :mode) "fundamental-mode"))
              (should (equal (plist-get file :file) "src/f.txt"))
              (should (eq (plist-get file :modified) :json-false))))
        (dolist (buf (list a b c d outside))
          (with-current-buffer buf (set-buffer-modified-p nil))
          (kill-buffer buf))))))

(ert-deftest jido-buffer-get-and-unknown ()
  (jido-test--with-root
    (let ((buf (get-buffer-create "jt-get")))
      (unwind-protect
          (progn
            (with-current-buffer buf
              (insert "one\ntwo\nthree\n")
              (goto-char (point-min))
              (forward-line 1)
              (narrow-to-region (point) (point-max)))
            (let ((r (jido--buffer-op root '(:op "get" :name "jt-get"))))
              (should (equal (plist-get r :text) "one\ntwo\nthree\n"))
              (should (equal (plist-get r :point) 2))
              (should (equal (plist-get r :name) "jt-get"))
              (should (integerp (plist-get r :version)))
              (should (eq (plist-get r :modified) t))
              (should (null (plist-get r :file))))
            (let ((err (should-error (jido--buffer-op root '(:op "get" :name "jt-nope"))
                                     :type 'jsonrpc-error)))
              (should (string-match-p "No buffer named jt-nope"
                                      (alist-get 'jsonrpc-error-message (cdr err)))))
            (should-error (jido--buffer-op root '(:op "get" :name "*Messages*"))
                          :type 'jsonrpc-error)
            (should-error (jido--buffer-op root '(:op "frob")) :type 'jsonrpc-error))
        (kill-buffer buf)))))

(ert-deftest jido-buffer-set-create-and-replace ()
  (jido-test--with-root
    (unwind-protect
        (let* ((r (jido--buffer-op root '(:op "set" :name "jt-new.el" :text "(a)\n(b)\n"
                                              :create t :point 2)))
               (buf (get-buffer "jt-new.el")))
          (should buf)
          (should (integerp (plist-get r :version)))
          (with-current-buffer buf
            (should (eq major-mode 'emacs-lisp-mode))
            (should (equal (buffer-string) "(a)\n(b)\n"))
            (should (= (line-number-at-pos) 2)))
          ;; Creating it again is refused.
          (should-error (jido--buffer-op root '(:op "set" :name "jt-new.el" :text "x" :create t))
                        :type 'jsonrpc-error)
          ;; Setting an unknown buffer without create is refused.
          (should-error (jido--buffer-op root '(:op "set" :name "jt-none" :text "x"))
                        :type 'jsonrpc-error)
          ;; Replacing keeps point on its line when the text above is unchanged.
          (with-current-buffer buf
            (goto-char (point-max))
            (forward-line -1)
            (forward-char 2))
          (let ((r2 (jido--buffer-op root '(:op "set" :name "jt-new.el"
                                                :text "(a)\n(bb)\n(c)\n" :point 2))))
            (should (> (plist-get r2 :version) (plist-get r :version)))
            (with-current-buffer buf
              (should (equal (buffer-string) "(a)\n(bb)\n(c)\n"))
              (should (= (line-number-at-pos) 2))))
          ;; A hint naming a function that is no major mode is ignored.
          (jido--buffer-op root '(:op "set" :name "jt-evil" :text "x" :create t
                                      :mode "kill-emacs"))
          (with-current-buffer "jt-evil" (should (eq major-mode 'fundamental-mode)))
          (jido--buffer-op root '(:op "set" :name "jt-py" :text "x = 1\n" :create t
                                      :mode "python-mode"))
          (with-current-buffer "jt-py" (should (eq major-mode 'python-mode))))
      (dolist (name '("jt-new.el" "jt-evil" "jt-py"))
        (when (get-buffer name)
          (with-current-buffer name (set-buffer-modified-p nil))
          (kill-buffer name))))))

(ert-deftest jido-buffer-created-star-names-stay-visible ()
  (jido-test--with-root
    (unwind-protect
        (progn
          (jido--buffer-op root '(:op "set" :name "*jt-scratch*" :text "x" :create t))
          (should (equal (plist-get (jido--buffer-op root '(:op "get" :name "*jt-scratch*")) :text)
                         "x"))
          (should (member "*jt-scratch*"
                          (mapcar (lambda (e) (plist-get e :name))
                                  (plist-get (jido--buffer-op root '(:op "list")) :buffers))))
          (should-error (jido--buffer-op root '(:op "set" :name " jt-hidden" :text "x" :create t))
                        :type 'jsonrpc-error)
          (should-not (get-buffer " jt-hidden")))
      (with-current-buffer "*jt-scratch*" (set-buffer-modified-p nil))
      (kill-buffer "*jt-scratch*"))))

(ert-deftest jido-buffer-saved-visits-the-file ()
  (jido-test--with-root
    (unwind-protect
        (let* ((r (jido--buffer-op root '(:op "set" :name "jt-notes" :text "hi\n" :create t)))
               (buf (get-buffer "jt-notes")))
          (make-directory (expand-file-name "doc" root))
          (with-temp-file (expand-file-name "doc/notes.txt" root) (insert "hi\n"))
          (should (null (jido--buffer-op root (list :op "saved" :name "jt-notes"
                                                    :path "doc/notes.txt"
                                                    :version (plist-get r :version)))))
          (with-current-buffer buf
            (should (equal (buffer-name) "jt-notes"))
            (should (equal (buffer-file-name) (expand-file-name "doc/notes.txt" root)))
            (should-not (buffer-modified-p))
            (should (verify-visited-file-modtime buf)))
          (let ((e (cl-find "jt-notes" (plist-get (jido--buffer-op root '(:op "list")) :buffers)
                            :key (lambda (e) (plist-get e :name)) :test #'equal)))
            (should (equal (plist-get e :file) "doc/notes.txt")))
          ;; A path outside the project is refused.
          (should-error (jido--buffer-op root '(:op "saved" :name "jt-notes" :path "../x"
                                                    :version 1))
                        :type 'jsonrpc-error))
      (when (get-buffer "jt-notes")
        (with-current-buffer "jt-notes" (set-buffer-modified-p nil))
        (kill-buffer "jt-notes")))))

(ert-deftest jido-buffer-saved-stale-version-stays-modified ()
  (jido-test--with-root
    (unwind-protect
        (let* ((r (jido--buffer-op root '(:op "set" :name "jt-stale" :text "a\n" :create t))))
          (with-current-buffer "jt-stale" (insert "typed "))
          (jido--buffer-op root (list :op "saved" :name "jt-stale" :path "stale.txt"
                                      :version (plist-get r :version)))
          (with-current-buffer "jt-stale" (should (buffer-modified-p))))
      (with-current-buffer "jt-stale" (set-buffer-modified-p nil))
      (kill-buffer "jt-stale"))))

;;;; Unit tests: rendering

(defmacro jido-test--with-chat (&rest body)
  "Run BODY in a fresh chat buffer bound to `buf', rooted at `root'."
  (declare (indent 0) (debug t))
  `(jido-test--with-root
     (let ((buf (jido--chat-buffer root)))
       (unwind-protect (progn ,@body)
         (kill-buffer buf)))))

(defun jido-test--transcript (buf)
  "Return the visible transcript of the chat BUF, without invisible text."
  (with-current-buffer buf
    (let ((out "") (pos (point-min)))
      (while (< pos (point-max))
        (let ((next (next-char-property-change pos)))
          (unless (invisible-p pos)
            (setq out (concat out (buffer-substring-no-properties pos next))))
          (setq pos next)))
      out)))

(ert-deftest jido-render-stream-and-tools ()
  (jido-test--with-chat
    (jido--render-event buf '(:kind "text" :text "Let me "))
    (jido--render-event buf '(:kind "text" :text "look."))
    (jido--render-event buf '(:kind "tool_call" :id "c1" :name "read_file"
                                   :args (:path "src/a.go" :start_line 3)))
    (let ((text (jido-test--transcript buf)))
      (should (string-match-p "Let me look\\.\n● read_file src/a.go … running\n" text))
      (should-not (string-match-p "\"path\"" text)))
    (jido--render-event buf '(:kind "tool_result" :id "c1" :name "read_file" :ok t
                                   :outcome "12 lines" :content (:content "package a")))
    (jido--render-event buf '(:kind "tool_call" :id "c2" :name "run_shell"
                                   :args (:cmd ["go" "test"])))
    (jido--render-event buf '(:kind "tool_result" :id "c2" :name "run_shell" :ok :json-false
                                   :outcome "exit 1" :content "FAIL"))
    (jido--render-event buf '(:kind "notice" :text "context trimmed"))
    (jido--render-event buf '(:kind "done" :text "Let me look."))
    (let ((text (jido-test--transcript buf)))
      (should (string-match-p "✓ read_file src/a.go → ok: 12 lines" text))
      (should (string-match-p "✗ run_shell go test → failed: exit 1" text))
      (should (string-match-p "\\[notice\\] context trimmed" text))
      (should-not (string-match-p "running" text))
      ;; done does not repeat streamed text.
      (should (= 1 (cl-count-if (lambda (l) (string-match-p "Let me look" l))
                                (split-string text "\n"))))
      ;; The prompt stays last.
      (should (string-suffix-p "jido> " text)))
    (with-current-buffer buf
      ;; TAB on the header shows the JSON of the call and its result.
      (goto-char (point-min))
      (search-forward "read_file")
      (jido-chat-toggle)
      (let ((text (jido-test--transcript buf)))
        (should (string-match-p "\"path\": \"src/a.go\"" text))
        (should (string-match-p "result:" text))
        (should (string-match-p "package a" text)))
      (jido-chat-toggle)
      (should-not (string-match-p "\"path\"" (jido-test--transcript buf)))
      ;; The transcript is read-only; the input is not.
      (goto-char (point-min))
      (should-error (insert "x") :type 'text-read-only)
      (goto-char (point-max))
      (insert "typed")
      (jido--render-event buf '(:kind "text" :text "more"))
      (should (equal (buffer-substring-no-properties jido--input-marker (point-max))
                     "typed")))))

(ert-deftest jido-render-done-without-stream ()
  (jido-test--with-chat
    (jido--render-event buf '(:kind "done" :text "Only at the end."))
    (should (string-match-p "Only at the end\\.\n" (jido-test--transcript buf)))))

(ert-deftest jido-render-progress ()
  (unwind-protect
      (progn
        (jido--render-event (current-buffer) '(:kind "progress" :id "c9" :elapsed_ms 1500
                                                    :tail "line 1\nline 2"))
        (jido--render-event (current-buffer) '(:kind "progress" :id "c9" :elapsed_ms 3000
                                                    :tail "line 2\nline 3"))
        (with-current-buffer "*jido-output*"
          (should (string-match-p "── c9 (3.0 s)\nline 2\nline 3" (buffer-string)))
          (should-not (string-match-p "1.5 s" (buffer-string)))))
    (when (get-buffer "*jido-output*") (kill-buffer "*jido-output*"))))

(ert-deftest jido-visit-path-line ()
  (jido-test--with-chat
    (with-temp-file (expand-file-name "f.txt" root) (insert "a\nb\nc\nd\n"))
    (jido--render-event buf '(:kind "text" :text "See f.txt:3 for it.\n"))
    (jido--render-event buf '(:kind "tool_call" :id "c1" :name "read_file"
                                   :args (:path "f.txt" :start_line 2)))
    (save-window-excursion
      (with-current-buffer buf
        (goto-char (point-min))
        (search-forward "f.txt:")
        (jido-chat-return)
        (should (equal (buffer-file-name) (expand-file-name "f.txt" root)))
        (should (= (line-number-at-pos) 3))
        (kill-buffer))
      (with-current-buffer buf
        (goto-char (point-min))
        (search-forward "read_file f.t")
        (jido-chat-return)
        (should (equal (buffer-file-name) (expand-file-name "f.txt" root)))
        (should (= (line-number-at-pos) 2))
        (kill-buffer)))))

(ert-deftest jido-approve-notes-the-answer ()
  (jido-test--with-chat
    (let* ((conn (make-instance 'jido-connection :root root
                                :process (make-pipe-process :name "jt-pipe" :noquery t)
                                :name "jt"))
           (seen nil)
           (jido-approval-function (lambda (_c params) (setq seen params) "session")))
      (unwind-protect
          (progn
            (should (equal (jido--dispatch-request conn 'approve '(:tool "write_file" :preview "x"))
                           '(:answer "session")))
            (should (equal (plist-get seen :tool) "write_file"))
            (should (string-match-p "approval of write_file: session"
                                    (jido-test--transcript buf)))
            (let ((jido-approval-function (lambda (_c _p) "yes please")))
              (should (equal (jido--approve conn '(:tool "run_shell")) "deny")))
            (let ((jido-approval-function (lambda (_c _p) (error "Boom"))))
              (should (equal (jido--approve conn '(:tool "run_shell")) "deny")))
            (should (string-match-p "approval of run_shell: denied"
                                    (jido-test--transcript buf)))
            (should-error (jido--dispatch-request conn 'frob nil) :type 'jsonrpc-error))
        (jido--stop conn)))))

(ert-deftest jido-approval-read-shows-the-diff ()
  (unwind-protect
      (cl-letf (((symbol-function 'read-multiple-choice)
                 (lambda (_prompt choices)
                   (with-current-buffer "*jido-approval*"
                     (should (eq major-mode 'diff-mode))
                     (should (string-match-p "^\\+new" (buffer-string)))
                     (should (string-match-p "reason: writes a file" (buffer-string))))
                   (assq ?a choices))))
        (should (equal (jido-approval-read nil '(:tool "write_file" :reason "writes a file"
                                                       :preview "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-old\n+new\n"))
                       "always")))
    (kill-buffer "*jido-approval*"))
  (unwind-protect
      (cl-letf (((symbol-function 'read-multiple-choice)
                 (lambda (_prompt _choices)
                   (with-current-buffer "*jido-approval*"
                     (should-not (eq major-mode 'diff-mode)))
                   (signal 'quit nil))))
        (should (equal (jido-approval-read nil '(:tool "run_shell" :preview "make test"))
                       "deny")))
    (kill-buffer "*jido-approval*")))

(ert-deftest jido-command-line ()
  (let ((jido-program "/bin/jido") (jido-profile "forj") (jido-mode "auto-edit")
        (jido-provider "openai") (jido-model "m") (jido-base-url "http://x/v1")
        (jido-args '("--allow-network")))
    (should (equal (jido--command "/p/q/")
                   '("/bin/jido" "serve" "--stdio" "--root" "/p/q" "--profile" "forj"
                     "--mode" "auto-edit" "--provider" "openai" "--model" "m"
                     "--base-url" "http://x/v1" "--allow-network"))))
  (let ((jido-program "jido") (jido-profile nil) (jido-mode nil) (jido-provider nil)
        (jido-model nil) (jido-base-url nil) (jido-args nil))
    (should (equal (jido--command "/p/") '("jido" "serve" "--stdio" "--root" "/p")))))

(ert-deftest jido-dead-server-is-a-user-error ()
  (jido-test--with-root
    (let ((jido-program (or (executable-find "false") "false"))
          (jido-root-function (lambda () root)))
      (let ((err (should-error (jido--connection root) :type 'user-error)))
        (should (string-match-p "did not start" (cadr err))))
      (should-not (gethash root jido--connections)))
    (let ((jido-program (expand-file-name "no-such-jido" root)))
      (should-error (jido--connection root) :type 'user-error))))

(ert-deftest jido-refresh-reverts-unmodified-buffers ()
  (jido-test--with-root
    (let* ((file (expand-file-name "r.txt" root))
           (other (expand-file-name "m.txt" root)))
      (with-temp-file file (insert "old\n"))
      (with-temp-file other (insert "old\n"))
      (let ((clean (find-file-noselect file))
            (dirty (find-file-noselect other)))
        (unwind-protect
            (progn
              (with-current-buffer dirty (insert "mine "))
              (sleep-for 0.02)
              (with-temp-file file (insert "new\n"))
              (with-temp-file other (insert "new\n"))
              (set-file-times file (time-add nil 5))
              (set-file-times other (time-add nil 5))
              (jido--refresh-buffers root)
              (with-current-buffer clean (should (equal (buffer-string) "new\n")))
              (with-current-buffer dirty (should (equal (buffer-string) "mine old\n"))))
          (with-current-buffer dirty (set-buffer-modified-p nil))
          (kill-buffer clean)
          (kill-buffer dirty))))))

;;;; The fake model

(defvar jido-test--steps nil
  "The fake model's script: the steps left to answer with.")

(defvar jido-test--requests nil
  "The requests the fake model received, newest first, as parsed JSON.")

(defvar jido-test--held nil
  "The clients whose answer the fake model holds back.")

(defun jido-test--sse (data)
  "Return DATA as one server-sent event."
  (concat "data: " (if (stringp data) data
                     (json-serialize data :null-object :null :false-object :false))
          "\n\n"))

(defun jido-test--chunk (delta finish)
  "Return a chat.completion.chunk with DELTA and FINISH reason."
  (jido-test--sse
   (list :id "chatcmpl-x" :object "chat.completion.chunk" :created 0 :model "fake"
         :choices (vector (list :index 0 :delta delta :finish_reason (or finish :null))))))

(defun jido-test--answer (step)
  "Return the HTTP answer to a request with STEP."
  (let ((texts (plist-get step :text))
        (calls (plist-get step :calls)))
    (encode-coding-string
     (concat
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
      "Cache-Control: no-cache\r\nConnection: close\r\n\r\n"
      (jido-test--chunk (list :role "assistant" :content "") nil)
      (mapconcat (lambda (s) (jido-test--chunk (list :content s) nil)) texts "")
      (let ((i -1))
        (mapconcat
         (lambda (c)
           (setq i (1+ i))
           (jido-test--chunk
            (list :tool_calls
                  (vector (list :index i :id (nth 0 c) :type "function"
                                :function (list :name (nth 1 c)
                                                :arguments (json-serialize (nth 2 c))))))
            nil))
         calls ""))
      (jido-test--chunk (make-hash-table) (if calls "tool_calls" "stop"))
      (jido-test--sse "[DONE]"))
     'utf-8)))

(defun jido-test--respond (client)
  "Answer the request CLIENT sent with the script's next step."
  (let ((step (pop jido-test--steps)))
    (cond
     ((null step)
      (process-send-string
       client (concat "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
                      "Connection: close\r\n\r\n"
                      "{\"error\":{\"message\":\"fake model: no step left\"}}"))
      (delete-process client))
     ((plist-get step :hold) (push client jido-test--held))
     (t (process-send-string client (jido-test--answer step))
        (delete-process client)))))

(defun jido-test--model-filter (client string)
  "Collect STRING from CLIENT; answer once a whole request arrived."
  (let ((data (concat (or (process-get client 'data) "") string)))
    (process-put client 'data data)
    (when (string-match "\r\n\r\n" data)
      (let* ((head (substring data 0 (match-beginning 0)))
             (body (substring data (match-end 0)))
             (length (and (string-match "^content-length: *\\([0-9]+\\)" (downcase head))
                          (string-to-number (match-string 1 (downcase head))))))
        (when (and length (>= (string-bytes body) length) (not (process-get client 'done)))
          (process-put client 'done t)
          (push (ignore-errors
                  (json-parse-string (decode-coding-string body 'utf-8) :object-type 'plist))
                jido-test--requests)
          (jido-test--respond client))))))

(defun jido-test--model-start (steps)
  "Start the fake model with the script STEPS; return its server process.
Each step is a plist: :text, a list of strings streamed one a chunk;
:calls, a list of (ID NAME ARGS) tool calls, ARGS a plist; :hold,
non-nil to never answer."
  (setq jido-test--steps steps
        jido-test--requests nil
        jido-test--held nil)
  (make-network-process :name "jido-fake-model" :server t :host "127.0.0.1"
                        :service t :family 'ipv4 :coding 'binary :noquery t
                        :filter #'jido-test--model-filter))

(defun jido-test--model-url (server)
  "Return the base URL of the fake model SERVER."
  (format "http://127.0.0.1:%d/v1" (process-contact server :service)))

;;;; End-to-end tests

(defun jido-test--program ()
  "Return the jido binary to test, or nil when there is none."
  (let ((p (getenv "JIDO_TEST_PROGRAM")))
    (and p (not (string-empty-p p)) (file-executable-p p) p)))

(defmacro jido-test--e2e (files steps &rest body)
  "Run BODY against the jido binary in a project of FILES.
The fake model answers with the script STEPS.  In BODY, `root' is
the project root and `server' the fake model."
  (declare (indent 2) (debug t))
  `(progn
     (skip-unless (jido-test--program))
     (let* ((root (jido-test--make-project ,files))
            (server (jido-test--model-start ,steps))
            (config (make-temp-file "jido-config-" t))
            (process-environment
             (append (list "OPENAI_API_KEY=test-key" "GEMINI_API_KEY=" "GOOGLE_API_KEY="
                           "OPENAI_BASE_URL=" (concat "XDG_CONFIG_HOME=" config))
                     process-environment))
            (jido-program (jido-test--program))
            (jido-provider "openai")
            (jido-model "fake")
            (jido-base-url (jido-test--model-url server))
            (jido-profile "jido")
            (jido-mode nil)
            (jido-args nil)
            (jido-root-function (lambda () root))
            (jido-approval-function (lambda (_conn _params) "once")))
       (unwind-protect
           (progn ,@body)
         (ignore-errors (jido-shutdown root))
         (let ((conn (gethash root jido--connections)))
           (when conn (jido--stop conn)))
         (dolist (c jido-test--held) (ignore-errors (delete-process c)))
         (delete-process server)
         (jido-test--kill-chat-buffers)
         (delete-directory root t)
         (delete-directory config t)))))

(defun jido-test--turn (root text)
  "Send TEXT to jido in ROOT, wait for the turn to end; return the transcript."
  (let ((conn (jido--connection root)))
    (jido--send conn text)
    (jido-test--wait (lambda () (not (jido-connection-busy conn))) "the turn to end")
    (jido-test--transcript (jido--chat-buffer root))))

(ert-deftest jido-e2e-read-then-approved-edit ()
  (jido-test--e2e '(("notes.txt" . "hello world\n"))
      (list (list :text '("Reading it.") :calls '(("c1" "read_file" (:path "notes.txt"))))
            (list :calls '(("c2" "edit_file" (:path "notes.txt" :old_string "world"
                                                     :new_string "emacs"))))
            (list :text '("Done: " "it says hello emacs.")))
    (let* ((asked nil)
           (open (find-file-noselect (expand-file-name "notes.txt" root)))
           (jido-approval-function (lambda (_conn params) (push params asked) "once"))
           (text (jido-test--turn root "change world to emacs")))
      (should (equal (jido-test--file root "notes.txt") "hello emacs\n"))
      ;; The unmodified buffer visiting the file follows the change.
      (with-current-buffer open
        (should (equal (buffer-string) "hello emacs\n"))
        (should-not (buffer-modified-p)))
      (kill-buffer open)
      (should (= (length asked) 1))
      (should (equal (plist-get (car asked) :tool) "edit_file"))
      (should (string-match-p "world" (plist-get (car asked) :preview)))
      (should (string-match-p "Reading it\\." text))
      (should (string-match-p "✓ read_file notes.txt → ok: " text))
      (should (string-match-p "✓ edit_file notes.txt → ok: " text))
      (should (string-match-p "approval of edit_file: once" text))
      (should (string-match-p "Done: it says hello emacs\\." text))
      (should (= (length jido-test--requests) 3)))))

(ert-deftest jido-e2e-denied-approval ()
  (jido-test--e2e '(("notes.txt" . "hello world\n"))
      (list (list :calls '(("c1" "read_file" (:path "notes.txt"))))
            (list :calls '(("c2" "edit_file" (:path "notes.txt" :old_string "world"
                                                     :new_string "emacs"))))
            (list :text '("I was not allowed.")))
    (let* ((jido-approval-function (lambda (_conn _params) "deny"))
           (text (jido-test--turn root "change world to emacs")))
      (should (equal (jido-test--file root "notes.txt") "hello world\n"))
      (should (string-match-p "approval of edit_file: denied" text))
      (should (string-match-p "✗ edit_file notes.txt → failed: " text))
      (should (string-match-p "I was not allowed\\." text)))))

(ert-deftest jido-e2e-buffer-tools-on-real-buffers ()
  (jido-test--e2e nil
      (list (list :calls '(("c1" "buffer_create" (:buffer_name "jt-e2e.txt"
                                                               :content "hello world\n"))))
            (list :calls '(("c2" "buffer_edit" (:buffer_name "jt-e2e.txt" :old_text "world"
                                                             :new_text "emacs"))))
            (list :calls '(("c3" "buffer_save" (:buffer_name "jt-e2e.txt"
                                                             :file_path "out/e2e.txt"))))
            (list :text '("Saved.")))
    (unwind-protect
        (let ((text (jido-test--turn root "make a buffer and save it")))
          (should (string-match-p "✓ buffer_create jt-e2e.txt → ok" text))
          (should (string-match-p "✓ buffer_edit jt-e2e.txt → ok" text))
          (should (string-match-p "✓ buffer_save out/e2e.txt → ok" text))
          (let ((buf (get-buffer "jt-e2e.txt")))
            (should buf)
            (with-current-buffer buf
              (should (equal (buffer-string) "hello emacs\n"))
              (should (equal (buffer-file-name) (expand-file-name "out/e2e.txt" root)))
              (should-not (buffer-modified-p))))
          (should (equal (jido-test--file root "out/e2e.txt") "hello emacs\n")))
      (when (get-buffer "jt-e2e.txt")
        (with-current-buffer "jt-e2e.txt" (set-buffer-modified-p nil))
        (kill-buffer "jt-e2e.txt")))))

(ert-deftest jido-e2e-unbalanced-lisp-refused-on-save ()
  (jido-test--e2e nil
      (list (list :calls '(("c1" "buffer_create" (:buffer_name "x.el"
                                                               :content "(defun broken (\n"))))
            (list :calls '(("c2" "buffer_save" (:buffer_name "x.el" :file_path "x.el"))))
            (list :text '("It did not parse.")))
    (unwind-protect
        (let ((text (jido-test--turn root "write broken lisp")))
          (should (string-match-p "✓ buffer_create x.el → ok" text))
          (should (string-match-p "✗ buffer_save x.el → failed: " text))
          (should (string-match-p "failed: validation-error: the change would make x.el stop parsing"
                                  text))
          (should-not (file-exists-p (expand-file-name "x.el" root)))
          (with-current-buffer "x.el"
            (should-not (buffer-file-name))
            (should (buffer-modified-p))))
      (when (get-buffer "x.el")
        (with-current-buffer "x.el" (set-buffer-modified-p nil))
        (kill-buffer "x.el")))))

(ert-deftest jido-e2e-interrupt-then-next-message ()
  (jido-test--e2e nil
      (list (list :hold t)
            (list :text '("Back again.")))
    (let ((conn (jido--connection root)))
      (jido--send conn "think hard")
      (jido-test--wait (lambda () jido-test--requests) "the model request")
      (should (jido-connection-busy conn))
      (jido-interrupt)
      (jido-test--wait (lambda () (not (jido-connection-busy conn))) "the cancel")
      (should (string-match-p "\\[cancelled\\]" (jido-test--transcript (jido--chat-buffer root))))
      (let ((text (jido-test--turn root "hello again")))
        (should (string-match-p "Back again\\." text))))))

(ert-deftest jido-e2e-restart-after-death-and-undo ()
  (jido-test--e2e '(("notes.txt" . "one\n"))
      (list (list :calls '(("c1" "read_file" (:path "notes.txt"))))
            (list :calls '(("c2" "write_file" (:path "notes.txt" :content "two\n"))))
            (list :text '("Written.")))
    (let ((first (jido--connection root)))
      (should (equal (plist-get (jido-connection-info first) :server) "jido"))
      (jido-test--turn root "write two")
      (should (equal (jido-test--file root "notes.txt") "two\n"))
      (let ((result (cl-letf (((symbol-function 'message) #'ignore)) (jido-undo))))
        (should (eq (plist-get result :ok) t)))
      (should (equal (jido-test--file root "notes.txt") "one\n"))
      (should (string-match-p "\\[undo\\]" (jido-test--transcript (jido--chat-buffer root))))
      ;; A dead server is reported and the next command starts another.
      (cl-letf (((symbol-function 'message) #'ignore))
        (delete-process (jsonrpc--process first))
        (jido-test--wait (lambda () (not (gethash root jido--connections))) "the death"))
      (should (string-match-p "jido exited" (jido-test--transcript (jido--chat-buffer root))))
      (let ((second (jido--connection root)))
        (should-not (eq first second))
        (should (jsonrpc-running-p second))))))

(ert-deftest jido-e2e-chat-command-and-approval-prompt ()
  (jido-test--e2e nil
      (list (list :calls '(("c1" "write_file" (:path "new.txt" :content "fresh\n"))))
            (list :text '("Wrote it.")))
    (let ((jido-approval-function #'jido-approval-read)
          (prompted nil))
      (cl-letf (((symbol-function 'read-multiple-choice)
                 (lambda (prompt choices)
                   (setq prompted (list prompt
                                        (with-current-buffer "*jido-approval*"
                                          (list major-mode (buffer-string)))))
                   (assq ?y choices))))
        (save-window-excursion
          (let ((buf (jido-chat)))
            (should (equal (buffer-name buf)
                           (format "*jido: %s*" (jido--project-name root))))
            (with-current-buffer buf
              (goto-char (point-max))
              (insert "write new.txt")
              (jido-chat-return)
              (should (equal (buffer-substring-no-properties jido--input-marker (point-max)) ""))
              (jido-test--wait (lambda () (not (jido-connection-busy (jido--connection root))))
                               "the turn to end")))))
      (should (string-match-p "allow write_file" (car prompted)))
      (should (eq (car (cadr prompted)) 'diff-mode))
      (should (string-match-p "^\\+fresh" (cadr (cadr prompted))))
      (should (equal (jido-test--file root "new.txt") "fresh\n"))
      (let ((text (jido-test--transcript (jido--chat-buffer root))))
        (should (string-match-p "> write new.txt" text))
        (should (string-match-p "✓ write_file new.txt → ok" text))
        (should (string-match-p "Wrote it\\." text))))
    (when (get-buffer "*jido-approval*") (kill-buffer "*jido-approval*"))))

(ert-deftest jido-e2e-ask-short-answer-in-echo-area ()
  (jido-test--e2e nil
      (list (list :text '("Forty-two.")))
    (let ((said nil))
      (cl-letf (((symbol-function 'message)
                 (lambda (fmt &rest args) (when fmt (push (apply #'format fmt args) said)))))
        (jido-ask "what is the answer?")
        (jido-test--wait (lambda () (member "jido: Forty-two." said)) "the answer")))))

(provide 'jido-tests)

;;; jido-tests.el ends here
