;;; batch.el --- batch-mode Emacs test of editors/emacs/foreach-ls.el against the real server  -*- lexical-binding: t; -*-
;;
;; Run by server/foreach-ls/tests/editor_emacs.rs (`foreach-ls' must be on PATH):
;;   emacs --batch -Q -l batch.el SNIPPET WORKSPACE/main.tf
;; Prints `ok: ...' lines and exits 0, or prints `FAIL: ...' and exits 1.

(load (expand-file-name "eglot-setup" (file-name-directory load-file-name)) nil t)

(defconst foreach-ls-test-timeout 30.0)

(defun foreach-ls-test-say (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun foreach-ls-test-fail (fmt &rest args)
  (foreach-ls-test-say "FAIL: %s" (apply #'format fmt args))
  (kill-emacs 1))

(defun foreach-ls-test-wait (what pred)
  "Run the event loop until PRED returns non-nil, or fail naming WHAT."
  (let ((deadline (+ (float-time) foreach-ls-test-timeout)) result)
    (while (and (not (setq result (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or result (foreach-ls-test-fail "timed out waiting for %s" what))))

(defun foreach-ls-test-line-of (needle)
  (save-excursion
    (goto-char (point-min))
    (unless (search-forward needle nil t)
      (foreach-ls-test-fail "no line contains %s" needle))
    (line-number-at-pos)))

(let ((snippet (nth 0 command-line-args-left))
      (file (nth 1 command-line-args-left)))
  (setq command-line-args-left nil)
  ;; The user has some terraform-mode; a bare one stands in for it here.
  (unless (fboundp 'terraform-mode)
    (define-derived-mode terraform-mode prog-mode "Terraform")
    (add-to-list 'auto-mode-alist '("\\.tf\\'" . terraform-mode)))
  ;; The workspace is the fixture's directory, whatever project.el would find above it (/tmp is no project).
  (let ((root (file-name-directory (expand-file-name file))))
    (add-hook 'project-find-functions (lambda (_dir) (cons 'transient root))))
  (load snippet nil t)
  (find-file file)
  (unless (eq major-mode 'terraform-mode)
    (foreach-ls-test-fail "major mode is %s, expected terraform-mode" major-mode))
  ;; `eglot-ensure' connects from `post-command-hook', which batch mode never runs: connect as it would.
  (apply #'eglot (eglot--guess-contact))
  (foreach-ls-test-wait "the server to attach" #'eglot-current-server)
  (foreach-ls-test-say "ok: attached, root %s, %S" (project-root (eglot--project (eglot-current-server)))
                       (eglot--server-info (eglot-current-server)))

  ;; Diagnostics: the wrong instance key, as an error on the line that has it.
  (let* ((bad-line (foreach-ls-test-line-of "aws.by_region[\"apse2\"]"))
         (diag (foreach-ls-test-wait
                "an unknown-provider-instance diagnostic"
                (lambda ()
                  (seq-find (lambda (d) (string-match-p "apse2" (flymake-diagnostic-text d)))
                            (flymake-diagnostics))))))
    (let ((line (line-number-at-pos (flymake-diagnostic-beg diag))))
      (unless (= line bad-line)
        (foreach-ls-test-fail "the diagnostic is on line %d, expected %d" line bad-line)))
    (unless (eq (flymake-diagnostic-type diag) 'eglot-error)
      (foreach-ls-test-fail "the diagnostic is a %s, not an error" (flymake-diagnostic-type diag)))
    (foreach-ls-test-say "ok: %d error %s" bad-line (flymake-diagnostic-text diag)))

  ;; Completion inside `aws.by_region[': the instance keys. The bracket's content is typed away first, as a user
  ;; would, so completion runs at `aws.by_region[|]'.
  (goto-char (point-min))
  (search-forward "aws.by_region[\"use1\"]")
  (let ((close (1- (point))))
    (search-backward "[")
    (forward-char)
    (delete-region (point) close))
  (let* ((capf (eglot-completion-at-point))
         (labels (and capf (all-completions "" (nth 2 capf)))))
    (dolist (key '("use1" "euw1"))
      (unless (seq-find (lambda (l) (string-match-p (regexp-quote key) l)) labels)
        (foreach-ls-test-fail "completion inside aws.by_region[ lacks `%s': %S" key labels)))
    (foreach-ls-test-say "ok: completion %s" (mapconcat #'identity labels " ")))
  (let ((eglot-autoshutdown nil))
    (ignore-errors (eglot-shutdown (eglot-current-server))))
  (kill-emacs 0))
