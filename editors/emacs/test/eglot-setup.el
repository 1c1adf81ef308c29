;;; eglot-setup.el --- make eglot loadable under `emacs -Q', or fail  -*- lexical-binding: t; -*-
;;
;; Emacs 29+ has eglot built in. Debian bookworm's Emacs 28 gets it from the elpa-eglot package, whose directory
;; `-Q' leaves out of the package directories. Loaded by batch.el, and alone as the probe that decides whether
;; the Emacs test can run (server/foreach-ls/tests/editor_emacs.rs, .ci/run): exits non-zero without eglot.

(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
;; Never touch the user's ~/.emacs.d/elpa.
(setq package-user-dir (make-temp-file "foreach-ls-elpa" t))
(package-initialize)
(require 'eglot)
