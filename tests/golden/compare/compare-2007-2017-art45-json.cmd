# Issue 3: 2007 -> 2017, article 45, as JSON (schemas/compare.schema.json).
args: compare 2007 2017 --article 45 --format json
exit: 0
