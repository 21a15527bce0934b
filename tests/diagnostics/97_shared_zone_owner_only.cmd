check --strict {rules}
