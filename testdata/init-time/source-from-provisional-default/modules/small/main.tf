variable "unused" { default = 1 }
