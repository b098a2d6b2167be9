" Vim syntax file for gisa assembly (docs/assembly.md, docs/editors.md).
" Install: copy editors/vim/syntax and editors/vim/ftdetect into ~/.vim (or
" ~/.config/nvim); *.gisa files are then gisa assembly (add `set ft=gisa`
" to a *.s file, or an autocmd, for .s files).
if exists('b:current_syntax')
  finish
endif

syn case match

syn keyword gisaTodo contained TODO FIXME XXX NOTE
syn match gisaComment "//.*$" contains=gisaTodo
syn region gisaComment start="/\*" end="\*/" contains=gisaTodo
syn region gisaString start=+"+ end=+"+ oneline

" a statement's start: guard, mnemonic, modifiers; or a directive
syn match gisaGuard "@!\=U\=P[0-6T]\>" nextgroup=gisaGuarded skipwhite
syn match gisaGuarded "\u[A-Z0-9_]*" contained nextgroup=gisaModifier
syn match gisaMnemonic "^\s*\zs\u[A-Z0-9_]*" nextgroup=gisaModifier
syn match gisaMnemonic ";\s*\zs\u[A-Z0-9_]*" nextgroup=gisaModifier
syn match gisaModifier "\.[A-Z0-9_]\+" contained nextgroup=gisaModifier
syn match gisaDirective "^\s*\zs\.\%(inst\|word\|invalid\|include\)\>"
syn match gisaDirective ";\s*\zs\.\%(inst\|word\|invalid\|include\)\>"

" operands
syn match gisaRegister "\<U\=R\%(\d\{1,3}\|Z\)\>"
syn match gisaRegister "\<U\=R\ze\["
syn match gisaRegister "\<PR\>"
syn match gisaPredicate "!\=\<U\=P[0-6T]\>"
syn match gisaSuffix "\%([0-9A-Z\]]\)\@<=\.[A-Z0-9_]\+"
syn match gisaBank "\<c\ze\["
syn match gisaNumber "-\=\<0[xX][0-9A-Fa-f_]\+\>"
syn match gisaNumber "\<0[fdh]\x\+\>"
syn match gisaNumber "-\=\<\d\+\%(\.\d*\)\=\%([eE][-+]\=\d\+\)\=\>"
syn keyword gisaNumber inf nan
syn match gisaControl "\$\%(sched\|req\|wsb\)\>"

hi def link gisaComment Comment
hi def link gisaTodo Todo
hi def link gisaString String
hi def link gisaGuard Conditional
hi def link gisaMnemonic Statement
hi def link gisaGuarded Statement
hi def link gisaModifier Type
hi def link gisaSuffix Type
hi def link gisaDirective PreProc
hi def link gisaRegister Identifier
hi def link gisaPredicate Special
hi def link gisaBank Identifier
hi def link gisaNumber Number
hi def link gisaControl Keyword

let b:current_syntax = 'gisa'
