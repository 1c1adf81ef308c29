;;; foreach-ls.el --- foreach-ls with eglot (Emacs 29+ built in; Emacs 28 with the eglot package)  -*- lexical-binding: t; -*-
;;
;; Load it from your init file, or copy the forms you need. It runs `foreach-ls serve' for OpenTofu and
;; Terraform buffers, in whichever of the usual major modes you have: terraform-mode (MELPA), terraform-ts-mode or
;; hcl-mode. Tested in batch mode by server/foreach-ls/tests/editor_emacs.rs (editors/emacs/test/batch.el).

(require 'eglot)

;; Emacs has no mode for `.tofu' files: reuse the one for `.tf'.
(add-to-list 'auto-mode-alist '("\\.tofu\\'" . terraform-mode))
(add-to-list 'auto-mode-alist '("\\.\\(tf\\|tofu\\)test\\.hcl\\'" . terraform-mode))

(add-to-list 'eglot-server-programs
             '((terraform-mode terraform-ts-mode hcl-mode)
               . ("foreach-ls" "serve"
                  ;; Settings, as in docs/lsp.md#settings: var files and values per root, severities, state files, ...
                  :initializationOptions (:varFiles []))))

(add-hook 'terraform-mode-hook #'eglot-ensure)

(provide 'foreach-ls)
;;; foreach-ls.el ends here
