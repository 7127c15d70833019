"""Club evenings and tournaments (issue 34): the evening's service, routes, prints and feeds."""
