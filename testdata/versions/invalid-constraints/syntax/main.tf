terraform {
  required_version = ">= 1.x"
 #^^^^^^^^^^^^^^^^ error[invalid-version-constraint]: `required_version` `>= 1.x` is not a version constraint
}
