variable "a" {
  type = string
}
variable "b" {
  type = list(string)
}
variable "c" {
  type = map(any)
}
module "m" {
  source = "./m"
  type   = "string"
}
/* block
   comment */
# trailing whitespace follows   
b { c = 1 }
