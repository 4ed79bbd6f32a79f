package gamequiv

import "time"

// Class is an equivalence class of games.
type Class struct {
	ID int64
	// Representative is the game that new games are compared with.
	Representative int64
	// Members are the games of the class in ascending id order, the
	// representative among them.
	Members   []Member
	CreatedAt time.Time
}

// Member is a game of a class.
type Member struct {
	ID   int64
	Name string
}

// RepresentativeName is the name of the class's representative.
func (c Class) RepresentativeName() string {
	for _, m := range c.Members {
		if m.ID == c.Representative {
			return m.Name
		}
	}
	return ""
}
