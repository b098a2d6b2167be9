" gisa assembly and ISA description files (docs/editors.md)
autocmd BufRead,BufNewFile *.gisa setfiletype gisa
autocmd BufRead,BufNewFile *.isa setfiletype gisaisa
