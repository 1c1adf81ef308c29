run "plan" {
  command = plan
}
