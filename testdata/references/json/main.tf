# Resources declared in a .tf.json file are declared like any other; the JSON file's own references are checked
# too (JSON cannot carry annotations: its findings are tested in tests/fixtures.rs).

resource "aws_subnet" "a" {
  vpc_id     = aws_vpc.from_json.id
  cidr_block = aws_vpc.from_jsn.cidr_block
  #            ^^^^^^^^^^^^^^^^ error[undefined-reference]: did you mean `aws_vpc.from_json`?
}
