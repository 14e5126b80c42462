"""Phones: who a phone is (identity: its cookie), where it sits at a match (seats), what it
may do there (rules) and in a group (group_rules), and what the host did to it since its last
page (notices). The one place every action is checked, on the server: no accounts, no
passwords."""
