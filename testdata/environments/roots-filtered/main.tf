# Three root modules: `live` has two environments, `legacy` one of its own, `other` none (checked once with its own
# values, as without a project file). The `qa` environment applies to no root and is not checked.
