;;; jido.el --- Emacs front end for the jido coding agent -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The jido authors

;; Author: The jido authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, processes
;; URL: https://github.com/jido-run/jido

;; This file is not part of GNU Emacs.

;;; Commentary:

;; jido.el talks to `jido serve --stdio' (docs/serve-protocol.md) over
;; JSON-RPC with the built-in jsonrpc.el, one server per project root.
;;
;; Commands:
;;
;;   M-x jido-chat       open the chat buffer of the current project
;;   M-x jido-ask        ask a question from the minibuffer
;;   M-x jido-interrupt  cancel the running turn
;;   M-x jido-undo       undo jido's last change set
;;   M-x jido-shutdown   stop the project's server
;;
;; In the chat buffer, type after the prompt and press RET to send.
;; Each tool call shows one header line, updated with its outcome;
;; TAB on a header shows or hides the JSON of the call and its result,
;; and RET on a file name (or on a `path:line' anywhere in the
;; transcript) visits that file at that line.
;;
;; Approvals asked by jido show their preview (a diff or a command) in
;; the buffer *jido-approval* and are answered in the minibuffer.  The
;; output of long commands is shown in *jido-output*.  jido's buffer
;; tools act on Emacs's own buffers: the server asks for them with
;; `buffer' requests, answered here.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'project)
(require 'subr-x)
(require 'json)
(require 'diff-mode)

(defgroup jido nil
  "Emacs front end for the jido coding agent."
  :group 'tools
  :prefix "jido-")

(defcustom jido-program "jido"
  "The jido executable."
  :type 'string)

(defcustom jido-args nil
  "Extra arguments given to `jido serve --stdio'."
  :type '(repeat string))

(defcustom jido-provider nil
  "The model provider (jido's --provider), or nil for the config's."
  :type '(choice (const :tag "Config's" nil) string))

(defcustom jido-model nil
  "The model name (jido's --model), or nil for the config's."
  :type '(choice (const :tag "Config's" nil) string))

(defcustom jido-base-url nil
  "The model service's base URL (jido's --base-url), or nil."
  :type '(choice (const :tag "Config's" nil) string))

(defcustom jido-mode nil
  "The approval mode (jido's --mode), or nil for the config's."
  :type '(choice (const :tag "Config's" nil) string))

(defcustom jido-profile "forj"
  "The tool profile (jido's --profile), or nil for the config's."
  :type '(choice (const :tag "Config's" nil) string))

(defcustom jido-root-function #'jido-default-root
  "Function of no arguments returning the project root to work in."
  :type 'function)

(defcustom jido-approval-function #'jido-approval-read
  "Function deciding an approval jido asks for.
It is called with the connection and the request's params (a
plist: :tool, :args, :preview, :reason, :rule...) and returns one
of the strings \"once\", \"session\", \"always\" or \"deny\"."
  :type 'function)

(defcustom jido-ask-echo-limit 120
  "Longest answer of `jido-ask' shown in the echo area instead of the chat."
  :type 'integer)

(defcustom jido-result-display-limit 4000
  "Most characters of a tool result shown in a call's details."
  :type 'integer)

(defface jido-prompt '((t :inherit minibuffer-prompt))
  "Face of the chat buffer's prompt.")

(defface jido-user '((t :inherit font-lock-keyword-face))
  "Face of the user's messages in the chat buffer.")

(defface jido-tool-header '((t :inherit font-lock-function-name-face))
  "Face of a tool call's header line.")

(defface jido-tool-ok '((t :inherit success))
  "Face of a tool call that succeeded.")

(defface jido-tool-failed '((t :inherit error))
  "Face of a tool call that failed.")

(defface jido-notice '((t :inherit font-lock-comment-face))
  "Face of notices, retries and turn ends.")

(defface jido-details '((t :inherit shadow))
  "Face of the JSON details of a tool call.")

(defconst jido--prompt "jido> "
  "The prompt of the chat buffer.")

(defconst jido--approval-buffer "*jido-approval*"
  "Name of the buffer showing the preview of an approval.")

(defconst jido--output-buffer "*jido-output*"
  "Name of the buffer showing the output of long commands.")

(defvar-local jido--lent nil
  "Non-nil in a buffer jido created: jido may use it whatever its name.")
(put 'jido--lent 'permanent-local t)

(defvar-local jido--chat-root nil
  "The project root of a chat buffer.")

(defvar-local jido--output-marker nil
  "Where the chat buffer's transcript ends.")

(defvar-local jido--input-marker nil
  "Where the chat buffer's input starts.")

(defvar-local jido--tools nil
  "The tool calls shown in a chat buffer, by id.")

(defvar-local jido--turn-text nil
  "Non-nil when the current turn streamed text.")

;;;; Connections

(defclass jido-connection (jsonrpc-process-connection)
  ((root :initarg :root :accessor jido-connection-root
         :documentation "The project root, a directory name.")
   (busy :initform nil :accessor jido-connection-busy
         :documentation "Non-nil while a turn runs.")
   (info :initform nil :accessor jido-connection-info
         :documentation "The result of `initialize'.")
   (callback :initform nil :accessor jido-connection-callback
             :documentation "Function called with the answer when the turn ends.")
   (stopping :initform nil :accessor jido-connection-stopping
             :documentation "Non-nil when the server is being shut down on purpose."))
  :documentation "A connection to `jido serve --stdio' for one project root.")

(defvar jido--connections (make-hash-table :test #'equal)
  "The live connections, by project root.")

(defun jido-default-root ()
  "Return the current project's root, else `default-directory'."
  (let ((project (project-current nil)))
    (file-name-as-directory
     (expand-file-name (if project (project-root project) default-directory)))))

(defun jido--root ()
  "Return the project root to work in, as a directory name."
  (file-name-as-directory
   (expand-file-name (or (and (derived-mode-p 'jido-chat-mode) jido--chat-root)
                         (funcall jido-root-function)))))

(defun jido--project-name (root)
  "Return the name of the project at ROOT."
  (file-name-nondirectory (directory-file-name root)))

(defun jido--command (root)
  "Return the command line of the server for ROOT."
  (append (list jido-program "serve" "--stdio"
                "--root" (directory-file-name root))
          (and jido-profile (list "--profile" jido-profile))
          (and jido-mode (list "--mode" jido-mode))
          (and jido-provider (list "--provider" jido-provider))
          (and jido-model (list "--model" jido-model))
          (and jido-base-url (list "--base-url" jido-base-url))
          jido-args))

(defun jido--empty ()
  "Return an empty JSON object."
  (make-hash-table :size 1))

(defun jido--error-message (err)
  "Return the message of ERR, an error as signalled by jsonrpc or Lisp."
  (if (eq (car err) 'jsonrpc-error)
      (or (alist-get 'jsonrpc-error-message (cdr err))
          (error-message-string err))
    (error-message-string err)))

(defun jido--stderr-tail (conn)
  "Return the last lines the server of CONN wrote on standard error."
  (let ((buffer (ignore-errors (jsonrpc-stderr-buffer conn))))
    (if (buffer-live-p buffer)
        (with-current-buffer buffer
          (string-trim (buffer-substring-no-properties
                        (save-excursion (goto-char (point-max))
                                        (forward-line -3)
                                        (point))
                        (point-max))))
      "")))

(defun jido--start (root)
  "Start a server for ROOT, initialize it and return its connection."
  (let* ((name (format "jido %s" (jido--project-name root)))
         (default-directory root)
         (command (jido--command root))
         conn)
    (condition-case err
        (setq conn
              (make-instance
               'jido-connection
               :name name
               :root root
               :process
               (lambda ()
                 (make-process
                  :name name
                  :command command
                  :connection-type 'pipe
                  :coding 'utf-8-emacs-unix
                  :noquery t
                  :stderr (get-buffer-create (format "*%s stderr*" name))))
               :request-dispatcher #'jido--dispatch-request
               :notification-dispatcher #'jido--dispatch-notification
               :on-shutdown #'jido--on-shutdown))
      (error (user-error "Cannot start %s: %s" jido-program
                         (error-message-string err))))
    (puthash root conn jido--connections)
    (condition-case err
        (setf (jido-connection-info conn)
              (jsonrpc-request conn 'initialize
                               (list :capabilities (list :buffers t))
                               :timeout 30))
      (error
       (let ((tail (progn (accept-process-output nil 0.1)
                          (jido--stderr-tail conn))))
         (jido--stop conn)
         (user-error "The jido server did not start: %s%s"
                     (jido--error-message err)
                     (if (string-empty-p tail) "" (concat ": " tail))))))
    conn))

(defun jido--live-connection (root)
  "Return the running connection for ROOT, or nil."
  (let ((conn (gethash root jido--connections)))
    (and conn (jsonrpc-running-p conn) conn)))

(defun jido--connection (root)
  "Return the connection for ROOT, starting a server when none is running."
  (or (jido--live-connection root) (jido--start root)))

(defun jido--stop (conn)
  "Stop the server of CONN at once."
  (setf (jido-connection-stopping conn) t)
  (remhash (jido-connection-root conn) jido--connections)
  (ignore-errors (jsonrpc-shutdown conn t)))

(defun jido--on-shutdown (conn)
  "Report that the server of CONN exited."
  (let ((root (jido-connection-root conn)))
    (when (eq (gethash root jido--connections) conn)
      (remhash root jido--connections))
    (setf (jido-connection-busy conn) nil)
    (unless (or (jido-connection-stopping conn) (null (jido-connection-info conn)))
      (let ((buffer (jido--find-chat-buffer root))
            (tail (jido--stderr-tail conn)))
        (when buffer
          (jido--insert buffer
                        (propertize
                         (format "[jido exited%s; the next message restarts it]\n"
                                 (if (string-empty-p tail) "" (concat ": " tail)))
                         'face 'jido-tool-failed)))
        (message "jido: the server for %s exited; the next command restarts it"
                 (jido--project-name root))))))

(defun jido-shutdown (&optional root)
  "Shut down the jido server of ROOT (default: the current project)."
  (interactive)
  (let ((conn (jido--live-connection (or root (jido--root)))))
    (if (not conn)
        (message "jido: no server runs here")
      (setf (jido-connection-stopping conn) t)
      (ignore-errors (jsonrpc-request conn 'shutdown (jido--empty) :timeout 5))
      (ignore-errors (jsonrpc-notify conn 'exit (jido--empty)))
      (let ((deadline (+ (float-time) 2)))
        (while (and (jsonrpc-running-p conn) (< (float-time) deadline))
          (accept-process-output nil 0.05)))
      (jido--stop conn))))

(defun jido--refresh-buffers (root)
  "Revert the unmodified buffers under ROOT whose files changed on disk."
  (dolist (buffer (buffer-list))
    (let ((file (buffer-file-name buffer)))
      (when (and file
                 (file-in-directory-p file root)
                 (not (buffer-modified-p buffer))
                 (file-exists-p file)
                 (not (verify-visited-file-modtime buffer)))
        (with-current-buffer buffer
          (condition-case err
              (revert-buffer t t t)
            (error (message "jido: cannot revert %s: %s" (buffer-name)
                            (error-message-string err)))))))))

(defun jido--dispatch-notification (conn method params)
  "Handle notification METHOD with PARAMS from CONN."
  (when (eq method 'event)
    (condition-case err
        (let ((root (jido-connection-root conn)))
          (jido--render-event (jido--chat-buffer root) params)
          (when (and (equal (plist-get params :kind) "tool_result")
                     (eq (plist-get params :ok) t))
            (jido--refresh-buffers root)))
      (error (message "jido: cannot show an event: %s"
                      (error-message-string err))))))

(defun jido--dispatch-request (conn method params)
  "Answer request METHOD with PARAMS from CONN."
  (pcase method
    ('approve (list :answer (jido--approve conn params)))
    ('buffer
     (condition-case err
         (jido--buffer-op (jido-connection-root conn) params)
       (jsonrpc-error (signal (car err) (cdr err)))
       (error (jsonrpc-error :code -32603 :message (error-message-string err)))))
    (_ (jsonrpc-error :code -32601 :message (format "unknown method %s" method)))))

;;;; Approvals

(defun jido--diff-p (preview)
  "Return non-nil when PREVIEW is a unified diff."
  (and (stringp preview)
       (string-match-p "\\`\\(?:diff \\|--- \\|\\+\\+\\+ \\|@@ \\)\\|^@@ " preview)))

(defun jido--show-approval (params)
  "Show the preview of the approval PARAMS in *jido-approval* and return it."
  (let ((buffer (get-buffer-create jido--approval-buffer))
        (preview (or (plist-get params :preview) "")))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert preview)
        (unless (string-suffix-p "\n" preview) (insert "\n"))
        (if (jido--diff-p preview) (diff-mode) (fundamental-mode))
        (save-excursion
          (goto-char (point-max))
          (insert "\n")
          (dolist (field '((:tool . "tool") (:class . "class") (:reason . "reason")
                           (:rule . "always adds") (:rule_file . "to")
                           (:rule_note . "note")))
            (let ((value (plist-get params (car field))))
              (when (and (stringp value) (not (string-empty-p value)))
                (insert (format "%s: %s\n" (cdr field) value))))))
        (setq buffer-read-only t)
        (goto-char (point-min))))
    buffer))

(defun jido-approval-read (_conn params)
  "Ask in the minibuffer whether to allow the call of approval PARAMS.
Return \"once\", \"session\", \"always\" or \"deny\"."
  (let* ((buffer (jido--show-approval params))
         (window (display-buffer buffer '(nil (inhibit-same-window . t))))
         (tool (or (plist-get params :tool) "a tool"))
         (reason (plist-get params :reason)))
    (unwind-protect
        (condition-case nil
            (pcase (car (read-multiple-choice
                         (format "jido: allow %s%s? " tool
                                 (if (and (stringp reason) (not (string-empty-p reason)))
                                     (format " (%s)" reason) ""))
                         '((?y "once" "allow this call")
                           (?s "session" "allow such calls for this session")
                           (?a "always" "allow such calls from now on (adds a rule)")
                           (?n "deny" "refuse the call"))))
              (?y "once") (?s "session") (?a "always") (_ "deny"))
          (quit "deny"))
      (when (window-live-p window)
        (quit-restore-window window 'bury)))))

(defun jido--approve (conn params)
  "Decide the approval PARAMS asked by CONN, and note it in the chat."
  (let* ((answer (condition-case err
                     (funcall jido-approval-function conn params)
                   (quit "deny")
                   (error (message "jido: approval failed: %s"
                                   (error-message-string err))
                          "deny")))
         (answer (if (member answer '("once" "session" "always" "deny")) answer "deny")))
    (jido--insert (jido--chat-buffer (jido-connection-root conn))
                  (propertize (format "  approval of %s: %s\n"
                                      (or (plist-get params :tool) "?")
                                      (if (equal answer "deny") "denied" answer))
                              'face (if (equal answer "deny")
                                        'jido-tool-failed 'jido-notice)))
    answer))

;;;; Buffers lent to jido

(defun jido--internal-buffer-p (buffer)
  "Return non-nil when BUFFER is internal or jido's own."
  (let ((name (buffer-name buffer)))
    (or (null name)
        (string-prefix-p " " name)
        (string-prefix-p "*" name)
        (minibufferp buffer)
        (with-current-buffer buffer (derived-mode-p 'jido-chat-mode)))))

(defun jido--buffer-file (buffer root)
  "Return the file BUFFER visits relative to ROOT, nil, or `outside'."
  (let ((file (buffer-file-name buffer)))
    (cond ((null file) nil)
          ((file-in-directory-p file root) (file-relative-name file root))
          (t 'outside))))

(defun jido--visible-buffer-p (buffer root)
  "Return non-nil when jido working in ROOT may see BUFFER."
  (and (buffer-live-p buffer)
       (or (buffer-local-value 'jido--lent buffer)
           (not (jido--internal-buffer-p buffer)))
       (not (eq (jido--buffer-file buffer root) 'outside))))

(defun jido--buffer-error (format-string &rest args)
  "Answer a buffer request with an error made of FORMAT-STRING and ARGS."
  (jsonrpc-error :code -32602 :message (apply #'format-message format-string args)))

(defun jido--lent-buffer (name root)
  "Return the buffer NAME that jido working in ROOT may use, or signal."
  (unless (and (stringp name) (not (string-empty-p name)))
    (jido--buffer-error "A buffer name is needed"))
  (let ((buffer (get-buffer name)))
    (unless (and buffer (jido--visible-buffer-p buffer root))
      (jido--buffer-error "No buffer named %s" name))
    buffer))

(defun jido--buffer-bytes ()
  "Return the size in bytes of the current buffer's whole text."
  (save-restriction
    (widen)
    (- (position-bytes (point-max)) (position-bytes (point-min)))))

(defun jido--json-bool (value)
  "Return VALUE as a JSON boolean."
  (if value t :json-false))

(defun jido--buffer-info (buffer root)
  "Return the `list' entry of BUFFER for ROOT."
  (with-current-buffer buffer
    (list :name (buffer-name)
          :file (jido--buffer-file buffer root)
          :mode (symbol-name major-mode)
          :size (jido--buffer-bytes)
          :modified (jido--json-bool (buffer-modified-p)))))

(defun jido--buffer-version (buffer)
  "Return the version of BUFFER's text."
  (buffer-chars-modified-tick buffer))

(defun jido--buffer-get (buffer root)
  "Return the `get' answer for BUFFER seen from ROOT."
  (with-current-buffer buffer
    (save-restriction
      (widen)
      (list :name (buffer-name)
            :text (buffer-substring-no-properties (point-min) (point-max))
            :mode (symbol-name major-mode)
            :point (line-number-at-pos (point) t)
            :version (jido--buffer-version buffer)
            :file (jido--buffer-file buffer root)
            :modified (jido--json-bool (buffer-modified-p))))))

(defun jido--mode-function (mode name)
  "Return the major mode function for MODE (a hint) or buffer NAME, or nil.
Only a major mode Emacs knows of is returned, never any function."
  (let* ((symbol (and (stringp mode) (not (string-empty-p mode))
                      (intern-soft (if (string-suffix-p "-mode" mode)
                                       mode (concat mode "-mode")))))
         (known (and symbol (fboundp symbol) (commandp symbol)
                     (or (get symbol 'derived-mode-parent)
                         (rassq symbol auto-mode-alist)
                         (memq symbol '(fundamental-mode text-mode prog-mode))))))
    (or (and known symbol)
        (let ((entry (assoc-default name auto-mode-alist #'string-match)))
          (if (consp entry) (car entry) entry)))))

(defun jido--goto-line (line)
  "Move point to the start of LINE (1-based) of the whole buffer."
  (goto-char (point-min))
  (forward-line (1- (max 1 line))))

(defun jido--replace-text (text)
  "Replace the current buffer's whole text with TEXT, keeping point if it can."
  (save-restriction
    (widen)
    (unless (string= text (buffer-substring-no-properties (point-min) (point-max)))
      (let ((source (generate-new-buffer " *jido-text*" t)))
        (unwind-protect
            (progn
              (with-current-buffer source (insert text))
              (unless (and (< (buffer-size) 200000)
                           (replace-buffer-contents source 1))
                (let ((line (line-number-at-pos (point) t)))
                  (erase-buffer)
                  (insert text)
                  (jido--goto-line line))))
          (kill-buffer source))))))

(defun jido--buffer-set (params root)
  "Answer a `set' request with PARAMS from ROOT."
  (let* ((name (plist-get params :name))
         (text (or (plist-get params :text) ""))
         (point (plist-get params :point))
         (create (eq (plist-get params :create) t))
         (existing (and (stringp name) (get-buffer name))))
    (unless (stringp text) (jido--buffer-error "The text must be a string"))
    (cond
     ((and create existing)
      (jido--buffer-error "A buffer named %s exists" name))
     (create
      (when (or (not (stringp name)) (string-empty-p name))
        (jido--buffer-error "A buffer name is needed"))
      (when (string-prefix-p " " name)
        (jido--buffer-error "Buffer name %s starts with a space: Emacs keeps those internal"
                            name))
      (let ((buffer (get-buffer-create name)))
        (with-current-buffer buffer
          (insert text)
          (let ((mode (jido--mode-function (plist-get params :mode) name)))
            (when mode
              (condition-case nil (funcall mode) (error (fundamental-mode)))))
          (setq jido--lent t)
          (set-buffer-modified-p (not (string-empty-p text)))
          (jido--goto-line (if (numberp point) point 1))
          (list :version (jido--buffer-version buffer)))))
     (t
      (let ((buffer (jido--lent-buffer name root)))
        (with-current-buffer buffer
          (when buffer-read-only
            (jido--buffer-error "Buffer %s is read-only" name))
          (jido--replace-text text)
          (when (and (numberp point)
                     (/= point (line-number-at-pos (point) t)))
            (jido--goto-line point)
            (dolist (window (get-buffer-window-list buffer nil t))
              (set-window-point window (point))))
          (list :version (jido--buffer-version buffer))))))))

(defun jido--buffer-saved (params root)
  "Answer a `saved' request with PARAMS from ROOT."
  (let* ((name (plist-get params :name))
         (path (plist-get params :path))
         (buffer (jido--lent-buffer name root)))
    (unless (and (stringp path) (not (string-empty-p path)))
      (jido--buffer-error "A path is needed"))
    (let ((file (expand-file-name path root)))
      (unless (file-in-directory-p file root)
        (jido--buffer-error "Path %s is outside the project" path))
      (with-current-buffer buffer
        (unless (equal (buffer-file-name) file)
          (set-visited-file-name file t t)
          (unless (equal (buffer-name) name)
            (rename-buffer name t)))
        (set-visited-file-modtime)
        (when (equal (plist-get params :version) (jido--buffer-version buffer))
          (set-buffer-modified-p nil)))
      nil)))

(defun jido--buffer-op (root params)
  "Answer the `buffer' request PARAMS of the server working in ROOT."
  (let ((op (plist-get params :op)))
    (pcase op
      ("list"
       (list :buffers
             (vconcat (mapcar (lambda (b) (jido--buffer-info b root))
                              (cl-remove-if-not
                               (lambda (b) (jido--visible-buffer-p b root))
                               (buffer-list))))))
      ("get" (jido--buffer-get (jido--lent-buffer (plist-get params :name) root) root))
      ("set" (jido--buffer-set params root))
      ("saved" (jido--buffer-saved params root))
      (_ (jido--buffer-error "Unknown buffer op %s" op)))))

;;;; The chat buffer

(defvar jido-chat-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'jido-chat-return)
    (define-key map (kbd "TAB") #'jido-chat-toggle)
    (define-key map (kbd "C-c C-c") #'jido-chat-send)
    (define-key map (kbd "C-c C-k") #'jido-interrupt)
    (define-key map (kbd "C-c C-u") #'jido-undo)
    (define-key map [mouse-2] #'jido-chat-mouse)
    map)
  "Keymap of `jido-chat-mode'.")

(define-derived-mode jido-chat-mode fundamental-mode "jido"
  "Major mode of jido's chat buffers.
Type a message after the prompt and press RET to send it.  On a
tool call's header, TAB shows or hides its JSON; on a file name or
a path:line, RET visits it.

\\{jido-chat-mode-map}"
  (setq-local jido--tools (make-hash-table :test #'equal))
  (setq-local truncate-lines nil)
  (setq-local word-wrap t)
  (let ((inhibit-read-only t))
    (erase-buffer)
    (insert (propertize jido--prompt 'face 'jido-prompt 'read-only t
                        'rear-nonsticky t 'front-sticky '(read-only)
                        'field 'jido-prompt))
    (setq-local jido--input-marker (point-marker))
    (setq-local jido--output-marker (point-min-marker))
    (set-marker-insertion-type jido--output-marker t)))

(defun jido--chat-buffer-name (root)
  "Return the name of the chat buffer of ROOT."
  (format "*jido: %s*" (jido--project-name root)))

(defun jido--find-chat-buffer (root)
  "Return the live chat buffer of ROOT, or nil."
  (cl-find-if (lambda (b)
                (with-current-buffer b
                  (and (derived-mode-p 'jido-chat-mode)
                       (equal jido--chat-root root))))
              (buffer-list)))

(defun jido--chat-buffer (root)
  "Return the chat buffer of ROOT, made when needed."
  (or (jido--find-chat-buffer root)
      (with-current-buffer (generate-new-buffer (jido--chat-buffer-name root))
        (jido-chat-mode)
        (setq jido--chat-root root)
        (setq default-directory root)
        (current-buffer))))

(defun jido--insert (buffer &rest strings)
  "Append STRINGS to the transcript of the chat BUFFER."
  (with-current-buffer buffer
    (let ((inhibit-read-only t)
          (follow (mapcar (lambda (w) (cons w (>= (window-point w) jido--input-marker)))
                          (get-buffer-window-list buffer nil t))))
      (save-excursion
        (goto-char jido--output-marker)
        (dolist (s strings)
          (insert (propertize s 'read-only t 'front-sticky '(read-only)))))
      (dolist (entry follow)
        (when (and (cdr entry) (< (window-point (car entry)) jido--input-marker))
          (set-window-point (car entry) (point-max)))))))

(defun jido--fresh-line (buffer)
  "Start a new line in the transcript of BUFFER unless at one."
  (with-current-buffer buffer
    (let ((pos (marker-position jido--output-marker)))
      (when (and (> pos (point-min)) (/= (char-before pos) ?\n))
        (jido--insert buffer "\n")))))

(defun jido--json (value)
  "Return VALUE, parsed JSON, as indented JSON text."
  (condition-case nil
      (with-temp-buffer
        (insert (json-serialize value :null-object nil :false-object :json-false))
        (let ((json-encoding-pretty-print t))
          (json-pretty-print-buffer))
        (buffer-string))
    (error (format "%S" value))))

(defun jido--indent (text prefix)
  "Return TEXT with PREFIX before each of its lines."
  (mapconcat (lambda (line) (concat prefix line))
             (split-string (string-trim-right text) "\n") "\n"))

(defun jido--arg-path (args)
  "Return the file or buffer a call with ARGS is about, or nil."
  (cl-some (lambda (key)
             (let ((v (plist-get args key)))
               (and (stringp v) (not (string-empty-p v)) v)))
           '(:path :file_path :directory :buffer_name)))

(defun jido--arg-summary (args)
  "Return a short summary of ARGS besides its path."
  (let ((cmd (or (plist-get args :cmd) (plist-get args :command)))
        (query (or (plist-get args :query) (plist-get args :pattern))))
    (cond ((vectorp cmd) (mapconcat (lambda (x) (format "%s" x)) cmd " "))
          ((stringp cmd) cmd)
          ((stringp query) (format "%S" query)))))

(defun jido--truncate (text limit)
  "Return TEXT cut to LIMIT characters."
  (if (> (length text) limit)
      (concat (substring text 0 limit) "\n…")
    text))

(defun jido--one-line (text limit)
  "Return TEXT on one line, cut to LIMIT characters."
  (let ((line (replace-regexp-in-string "[\n\t ]+" " " (string-trim text))))
    (if (> (length line) limit)
        (concat (substring line 0 limit) "…")
      line)))

(defun jido--header (tool)
  "Return the header line of TOOL, a plist of a call's state."
  (let* ((name (plist-get tool :name))
         (args (plist-get tool :args))
         (path (jido--arg-path args))
         (summary (jido--arg-summary args))
         (state (plist-get tool :state))
         (line (or (plist-get args :start_line) (plist-get args :line)
                   (plist-get args :offset))))
    (concat
     (propertize (pcase state ('ok "✓ ") ('failed "✗ ") (_ "● "))
                 'face (pcase state ('ok 'jido-tool-ok) ('failed 'jido-tool-failed)
                         (_ 'jido-tool-header)))
     (propertize name 'face 'jido-tool-header)
     (if path
         (concat " " (propertize path 'jido-path path
                                 'jido-line (and (numberp line) line)
                                 'mouse-face 'highlight
                                 'help-echo "RET: visit this file"))
       "")
     (if summary (concat " " (jido--one-line summary 80)) "")
     (pcase state
       ('ok (propertize (format " → ok: %s" (jido--one-line (plist-get tool :outcome) 160))
                        'face 'jido-tool-ok))
       ('failed (propertize (format " → failed: %s"
                                (jido--one-line (plist-get tool :outcome) 160))
                            'face 'jido-tool-failed))
       (_ " … running")))))

(defun jido--render-tool-call (buffer params)
  "Show the tool call PARAMS in the chat BUFFER."
  (jido--fresh-line buffer)
  (with-current-buffer buffer
    (let* ((id (or (plist-get params :id) (format "call-%d" (hash-table-count jido--tools))))
           (tool (list :name (or (plist-get params :name) "?")
                       :args (plist-get params :args) :state 'running))
           (header-start (copy-marker jido--output-marker)))
      (jido--insert buffer (propertize (jido--header tool) 'jido-tool id))
      (let ((header-end (copy-marker jido--output-marker)))
        (jido--insert buffer "\n")
        (let ((details-start (marker-position jido--output-marker)))
          (jido--insert buffer
                        (propertize (concat (jido--indent (jido--json (plist-get params :args)) "    ")
                                            "\n")
                                    'face 'jido-details 'jido-tool id))
          (let ((overlay (make-overlay details-start jido--output-marker nil nil nil)))
            (overlay-put overlay 'invisible t)
            (overlay-put overlay 'jido-details t)
            (puthash id (append (list :start header-start :end header-end :overlay overlay)
                                tool)
                     jido--tools)))))))

(defun jido--content-text (content)
  "Return the text of CONTENT, a tool result as the model sees it."
  (if (stringp content) content (jido--json content)))

(defun jido--outcome (params)
  "Return the outcome shown for the tool result PARAMS."
  (let ((outcome (plist-get params :outcome))
        (content (plist-get params :content)))
    (cond
     ((and (stringp outcome) (not (string-empty-p outcome))) outcome)
     ((and (consp content) (stringp (plist-get content :type)))
      (jido--one-line (format "%s: %s" (plist-get content :type)
                              (or (plist-get content :message) ""))
                      160))
     ((stringp content)
      (jido--one-line content 160))
     (t ""))))

(defun jido--render-tool-result (buffer params)
  "Update the chat BUFFER's header of the call PARAMS is the result of."
  (with-current-buffer buffer
    (let* ((id (plist-get params :id))
           (tool (gethash id jido--tools)))
      (unless tool
        (jido--render-tool-call buffer (list :id id :name (plist-get params :name)))
        (setq tool (gethash id jido--tools)))
      (setq tool (plist-put tool :state (if (eq (plist-get params :ok) t) 'ok 'failed)))
      (setq tool (plist-put tool :outcome (jido--outcome params)))
      (puthash id tool jido--tools)
      (let ((inhibit-read-only t)
            (start (plist-get tool :start))
            (end (plist-get tool :end))
            (overlay (plist-get tool :overlay)))
        (save-excursion
          (goto-char start)
          (delete-region start end)
          (insert (propertize (jido--header tool) 'jido-tool id 'read-only t))
          (set-marker end (point))
          (when (plist-member params :content)
            (let ((at (overlay-end overlay))
                  (text (concat "    result:\n"
                                (jido--indent (jido--truncate
                                               (jido--content-text (plist-get params :content))
                                               jido-result-display-limit)
                                              "    ")
                                "\n")))
              (goto-char at)
              (insert (propertize text 'face 'jido-details 'jido-tool id 'read-only t))
              (move-overlay overlay (overlay-start overlay) (point)))))))))

(defun jido--render-progress (params)
  "Show the tail of a running command, the progress PARAMS, in *jido-output*."
  (let ((buffer (get-buffer-create jido--output-buffer))
        (id (format "%s" (or (plist-get params :id) "?"))))
    (with-current-buffer buffer
      (unless (local-variable-p 'jido--tools)
        (setq-local jido--tools (make-hash-table :test #'equal)))
      (let* ((inhibit-read-only t)
             (region (gethash id jido--tools))
             (text (format "── %s (%.1f s)\n%s\n" id
                           (/ (or (plist-get params :elapsed_ms) 0) 1000.0)
                           (string-trim-right (or (plist-get params :tail) "")))))
        (save-excursion
          (if region
              (progn (goto-char (car region))
                     (delete-region (car region) (cdr region)))
            (goto-char (point-max))
            (setq region (cons (point-marker) (point-marker)))
            (set-marker-insertion-type (cdr region) t)
            (puthash id region jido--tools))
          (insert text))
        (setq buffer-read-only t)))))

(defun jido--render-event (buffer params)
  "Show the event PARAMS in the chat BUFFER."
  (let ((kind (plist-get params :kind)))
    (pcase kind
      ("text"
       (let ((text (or (plist-get params :text) "")))
         (unless (string-empty-p text)
           (with-current-buffer buffer (setq jido--turn-text t))
           (jido--insert buffer text))))
      ("tool_call" (jido--render-tool-call buffer params))
      ("tool_result" (jido--render-tool-result buffer params))
      ("progress" (jido--render-progress params))
      ((or "notice" "retry")
       (jido--fresh-line buffer)
       (jido--insert buffer (propertize (format "[%s] %s\n" kind (or (plist-get params :text) ""))
                                        'face 'jido-notice)))
      ("done"
       (let ((text (plist-get params :text)))
         (when (and (stringp text) (not (string-empty-p text))
                    (not (buffer-local-value 'jido--turn-text buffer)))
           (jido--fresh-line buffer)
           (jido--insert buffer text))
         (with-current-buffer buffer (setq jido--turn-text 'done))
         (jido--fresh-line buffer))))))

;;;; Turns

(defun jido--turn-end (conn buffer answer err)
  "End the turn of CONN shown in BUFFER with ANSWER or the error ERR."
  (setf (jido-connection-busy conn) nil)
  (when (buffer-live-p buffer)
    (jido--fresh-line buffer)
    (cond
     ((null err)
      (let ((text (plist-get answer :text)))
        (when (and (stringp text) (not (string-empty-p text))
                   (not (buffer-local-value 'jido--turn-text buffer)))
          (jido--insert buffer text)
          (jido--fresh-line buffer))))
     ((eql (plist-get err :code) -32800)
      (jido--insert buffer (propertize "[cancelled]\n" 'face 'jido-notice)))
     (t
      (jido--insert buffer (propertize (format "[error] %s\n" (plist-get err :message))
                                       'face 'jido-tool-failed))
      (message "jido: %s" (plist-get err :message))))
    (jido--insert buffer "\n"))
  (let ((callback (jido-connection-callback conn)))
    (setf (jido-connection-callback conn) nil)
    (when callback
      (funcall callback (and (null err) (plist-get answer :text)) err))))

(defun jido--send (conn text &optional callback)
  "Send TEXT as a message to CONN; call CALLBACK with the answer and error."
  (when (jido-connection-busy conn)
    (user-error "The jido server is busy: wait, or interrupt it with M-x jido-interrupt"))
  (let ((buffer (jido--chat-buffer (jido-connection-root conn))))
    (with-current-buffer buffer (setq jido--turn-text nil))
    (jido--fresh-line buffer)
    (jido--insert buffer (propertize (concat "> " text "\n") 'face 'jido-user))
    (setf (jido-connection-busy conn) t
          (jido-connection-callback conn) callback)
    (condition-case err
        (jsonrpc-async-request
         conn 'message (list :text text)
         :timeout nil
         :success-fn (lambda (result) (jido--turn-end conn buffer result nil))
         :error-fn (lambda (error) (jido--turn-end conn buffer nil error)))
      (error
       (setf (jido-connection-busy conn) nil
             (jido-connection-callback conn) nil)
       (user-error "The jido server failed: %s" (jido--error-message err))))))

;;;###autoload
(defun jido-chat ()
  "Open the chat buffer of the current project, starting jido when needed."
  (interactive)
  (let* ((root (jido--root))
         (buffer (jido--chat-buffer root)))
    (jido--connection root)
    (pop-to-buffer buffer)
    (goto-char (point-max))
    buffer))

(defun jido-chat-send ()
  "Send the text after the prompt to jido."
  (interactive)
  (unless (derived-mode-p 'jido-chat-mode)
    (user-error "Not in a jido chat buffer"))
  (let ((text (string-trim (buffer-substring-no-properties jido--input-marker (point-max)))))
    (when (string-empty-p text)
      (user-error "Nothing to send: type a message after the prompt"))
    (let ((conn (jido--connection jido--chat-root)))
      (when (jido-connection-busy conn)
        (user-error "The jido server is busy: wait, or interrupt it with C-c C-k"))
      (let ((inhibit-read-only t))
        (delete-region jido--input-marker (point-max)))
      (jido--send conn text))))

(defun jido--path-at-point ()
  "Return (FILE . LINE) for the file name or path:line at point, or nil."
  (let ((path (get-text-property (point) 'jido-path))
        (line (get-text-property (point) 'jido-line)))
    (if path
        (cons path line)
      (let ((thing (thing-at-point 'filename t)))
        (when (and thing
                   (string-match "\\`\\(.*?\\)\\(?::\\([0-9]+\\)\\)?\\(?::[0-9]+\\)?:?\\'"
                                 thing))
          (let ((file (match-string 1 thing))
                (line (match-string 2 thing)))
            (and (not (string-empty-p file))
                 (cons file (and line (string-to-number line))))))))))

(defun jido--visit (file line)
  "Visit FILE of the chat's project (or a buffer so named) at LINE."
  (let* ((root (or jido--chat-root default-directory))
         (path (expand-file-name file root)))
    (cond
     ((file-exists-p path)
      (find-file-other-window path))
     ((get-buffer file)
      (pop-to-buffer (get-buffer file)))
     (t (user-error "No file %s in %s" file root)))
    (when line
      (jido--goto-line line))))

(defun jido-chat-return ()
  "Send the input, or visit the file at point, or toggle the call at point."
  (interactive)
  (cond
   ((>= (point) jido--input-marker) (jido-chat-send))
   ((let ((target (jido--path-at-point)))
      (when (and target (or (file-exists-p (expand-file-name (car target) jido--chat-root))
                            (get-buffer (car target))))
        (jido--visit (car target) (cdr target))
        t)))
   ((get-text-property (point) 'jido-tool) (jido-chat-toggle))
   (t (message "Nothing to do here: type after the prompt to send a message"))))

(defun jido-chat-mouse (event)
  "Visit the file or toggle the call clicked with EVENT."
  (interactive "e")
  (mouse-set-point event)
  (if (< (point) jido--input-marker)
      (jido-chat-return)
    (mouse-yank-primary event)))

(defun jido-chat-toggle ()
  "Show or hide the JSON of the tool call at point."
  (interactive)
  (let* ((id (get-text-property (point) 'jido-tool))
         (tool (and id (gethash id jido--tools)))
         (overlay (plist-get tool :overlay)))
    (cond
     (overlay (overlay-put overlay 'invisible (not (overlay-get overlay 'invisible))))
     ((>= (point) jido--input-marker) (indent-for-tab-command))
     (t (message "No tool call here")))))

;;;###autoload
(defun jido-ask (question)
  "Ask jido QUESTION; show the answer in the echo area when short, else the chat."
  (interactive (list (read-string "Ask jido: ")))
  (when (string-empty-p (string-trim question))
    (user-error "Nothing to ask"))
  (let* ((root (jido--root))
         (conn (jido--connection root))
         (buffer (jido--chat-buffer root)))
    (jido--send conn question
                (lambda (answer err)
                  (cond
                   (err nil)
                   ((and (stringp answer)
                         (<= (length answer) jido-ask-echo-limit)
                         (not (string-match-p "\n" (string-trim answer)))
                         (not (get-buffer-window buffer t)))
                    (message "jido: %s" (string-trim answer)))
                   (t (display-buffer buffer)))))
    (message "jido: asked; the answer will show when it comes")))

;;;###autoload
(defun jido-interrupt ()
  "Cancel jido's running turn."
  (interactive)
  (let ((conn (jido--live-connection (jido--root))))
    (cond
     ((not conn) (message "jido: no server runs here"))
     ((not (jido-connection-busy conn)) (message "jido: nothing to interrupt"))
     (t (condition-case err
            (progn (jsonrpc-notify conn 'cancel (jido--empty))
                   (message "jido: interrupting"))
          (error (message "jido: %s" (jido--error-message err))))))))

(defun jido--result-summary (result)
  "Return a one-line summary of RESULT, a ToolResult."
  (let ((err (plist-get result :error)))
    (if (eq (plist-get result :ok) t)
        (let ((text (json-serialize (or (plist-get result :result) (jido--empty))
                                    :null-object nil :false-object :json-false)))
          (jido--truncate text 300))
      (format "failed: %s%s" (or (plist-get err :type) "error")
              (if (plist-get err :message) (concat ": " (plist-get err :message)) "")))))

;;;###autoload
(defun jido-undo (&optional change-id)
  "Undo jido's last change set, or the one named CHANGE-ID, and show the result.
Interactively, a prefix argument asks for CHANGE-ID."
  (interactive (list (and current-prefix-arg (read-string "Change id: "))))
  (let* ((root (jido--root))
         (conn (jido--connection root))
         (params (if (and change-id (not (string-empty-p change-id)))
                     (list :change_id change-id)
                   (jido--empty)))
         (result (condition-case err
                     (jsonrpc-request conn 'undo params :timeout 60)
                   (error (user-error "Undo failed: %s" (jido--error-message err)))))
         (summary (progn (jido--refresh-buffers root)
                         (jido--result-summary result))))
    (let ((buffer (jido--find-chat-buffer root)))
      (when buffer
        (jido--fresh-line buffer)
        (jido--insert buffer (propertize (format "[undo] %s\n" summary)
                                         'face (if (eq (plist-get result :ok) t)
                                                   'jido-notice 'jido-tool-failed)))))
    (message "jido undo: %s" summary)
    result))

(provide 'jido)

;;; jido.el ends here
