output "ids" { value = [] }
